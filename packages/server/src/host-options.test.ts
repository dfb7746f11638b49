import { describe, expect, it } from "vitest";
import { HostOptionsError, parseHostOptions } from "./host-options.js";

describe("parseHostOptions", () => {
  it("takes --port=<n>", () => {
    expect(parseHostOptions(["--port=50051"], {})).toEqual({ port: 50051, host: "127.0.0.1" });
  });

  it("takes --port <n>", () => {
    expect(parseHostOptions(["--port", "8080"], {}).port).toBe(8080);
  });

  it("prefers --port over COSTPLUGIN_PLUGIN_PORT", () => {
    expect(parseHostOptions(["--port=1234"], { COSTPLUGIN_PLUGIN_PORT: "5678" }).port).toBe(1234);
  });

  it("falls back to COSTPLUGIN_PLUGIN_PORT", () => {
    expect(parseHostOptions([], { COSTPLUGIN_PLUGIN_PORT: "5678" }).port).toBe(5678);
  });

  it("ignores a generic PORT variable and takes an ephemeral port", () => {
    expect(parseHostOptions([], { PORT: "3000" }).port).toBe(0);
  });

  it("binds 127.0.0.1 unless --host says otherwise", () => {
    expect(parseHostOptions([], {}).host).toBe("127.0.0.1");
    expect(parseHostOptions(["--host", "::1"], {}).host).toBe("::1");
  });

  it("leaves the plugin's own arguments alone", () => {
    expect(parseHostOptions(["pull", "--config", "c.yaml", "--port=9"], {})).toEqual({
      port: 9,
      host: "127.0.0.1",
    });
  });

  it.each([
    ["--port=abc"],
    ["--port=-1"],
    ["--port=65536"],
    ["--port=8080.5"],
    ["--port="],
    ["--port"],
  ])("rejects %s with a message naming the flag and the range", (arg) => {
    expect(() => parseHostOptions([arg], {})).toThrow(HostOptionsError);
    expect(() => parseHostOptions([arg], {})).toThrow(/invalid --port.*0 to 65535/);
  });

  it("rejects an unusable COSTPLUGIN_PLUGIN_PORT by name", () => {
    expect(() => parseHostOptions([], { COSTPLUGIN_PLUGIN_PORT: "http" })).toThrow(
      /invalid COSTPLUGIN_PLUGIN_PORT: got "http"/,
    );
  });

  it("rejects an empty --host", () => {
    expect(() => parseHostOptions(["--host="], {})).toThrow(/invalid --host/);
  });
});
