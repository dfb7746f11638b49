import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { resolveConformanceOptions } from "./conformance-options.js";
import { ConformanceOptionsError } from "./conformance-options-error.js";

describe("resolveConformanceOptions", () => {
  it("applies the defaults", async () => {
    const resolved = await resolveConformanceOptions({ url: "http://127.0.0.1:50051/" });
    expect(resolved).toMatchObject({
      target: { kind: "url", url: "http://127.0.0.1:50051" },
      level: "standard",
      protocols: ["grpc", "grpc-web", "connect-json", "connect-binary"],
      httpVersion: "1.1",
      timeouts: { callMs: 10_000, probeMs: 5_000, startMs: 15_000, shutdownMs: 10_000 },
      performance: {
        calls: 10,
        standardConcurrency: 10,
        advancedConcurrency: 50,
        callsPerCaller: 5,
      },
      oversizedMessageBytes: 5 * 1024 * 1024,
    });
  });

  it("merges resources given inline and in a fixtures file, the inline actual cost winning", async () => {
    const resolved = await resolveConformanceOptions({
      url: "http://127.0.0.1:1",
      resources: ["gcp/compute/e2-micro/us-central1"],
      fixturesFile: fileURLToPath(new URL("./testdata/fixtures.yaml", import.meta.url)),
      actualCost: {
        resourceId: "i-inline",
        start: "2025-02-01T00:00:00Z",
        end: "2025-02-02T00:00:00Z",
      },
    });
    expect(resolved.fixtures.resources.map((resource) => resource.provider)).toEqual([
      "gcp",
      "aws",
      "aws",
    ]);
    expect(resolved.fixtures.actualCost?.resourceId).toBe("i-inline");
  });

  it("splits a plugin command string", async () => {
    const resolved = await resolveConformanceOptions({ exec: "node 'my plugin.js' --x" });
    expect(resolved.target).toMatchObject({
      kind: "exec",
      command: ["node", "my plugin.js", "--x"],
    });
  });

  it.each([
    [{}, /exactly one/],
    [{ url: "http://127.0.0.1:1", exec: "node x" }, /exactly one/],
    [{ url: "not a url" }, /is not a URL/],
    [{ url: "http://127.0.0.1:1/prefix" }, /no path/],
    [{ url: "http://127.0.0.1:1", protocols: [] }, /no protocol/],
    [{ url: "http://127.0.0.1:1", protocols: ["http3"] }, /http3/],
    [{ url: "http://127.0.0.1:1", level: "extreme" }, /extreme/],
    [{ url: "http://127.0.0.1:1", timeouts: { callMs: 0 } }, /call timeout/],
    [{ url: "http://127.0.0.1:1", performance: { calls: 1.5 } }, /performance calls/],
    [{ exec: [] }, /empty/],
  ])("refuses %j", async (options, message) => {
    const pending = resolveConformanceOptions(options as never);
    await expect(pending).rejects.toBeInstanceOf(ConformanceOptionsError);
    await expect(resolveConformanceOptions(options as never)).rejects.toThrow(message);
  });
});
