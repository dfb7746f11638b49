import { CostSourceService } from "@costplugin/proto";
import { describe, expect, it } from "vitest";
import type { CallRecord } from "../src/plugin-session.js";
import { bufCurlCommand, curlCommand, shellQuote } from "../src/shell-commands.js";

const record: CallRecord = {
  method: CostSourceService.method.supports,
  baseUrl: "http://127.0.0.1:8080",
  protocol: "grpc-web",
  request: { resource: { provider: "aws", resourceType: "ec2", tags: { owner: "O'Brien" } } },
  response: { supported: true, reason: "" },
  latencyMs: 2,
  startedAt: new Date(0),
};

describe("shellQuote", () => {
  it("wraps text in single quotes and escapes embedded ones", () => {
    expect(shellQuote("it's $HOME `x`")).toBe(`'it'\\''s $HOME \`x\`'`);
  });
});

describe("curlCommand", () => {
  it("posts the request as Connect JSON to the method's path", () => {
    expect(curlCommand(record)).toBe(
      [
        "curl -sS -X POST",
        "  -H 'Content-Type: application/json'",
        "  -H 'Connect-Protocol-Version: 1'",
        `  --data '{"resource":{"provider":"aws","resourceType":"ec2","tags":{"owner":"O'\\''Brien"}}}'`,
        "  'http://127.0.0.1:8080/costplugin.v1.CostSourceService/Supports'",
      ].join(" \\\n"),
    );
  });
});

describe("bufCurlCommand", () => {
  it("names the schema directory and the page's protocol", () => {
    const command = bufCurlCommand(record);
    expect(command).toContain("buf curl --schema proto");
    expect(command).toContain("--protocol grpcweb");
    expect(command).toContain("'http://127.0.0.1:8080/costplugin.v1.CostSourceService/Supports'");
  });

  it("uses the connect protocol for both Connect encodings", () => {
    expect(bufCurlCommand({ ...record, protocol: "connect-json" })).toContain("--protocol connect");
    expect(bufCurlCommand({ ...record, protocol: "connect-binary" })).toContain(
      "--protocol connect",
    );
  });
});
