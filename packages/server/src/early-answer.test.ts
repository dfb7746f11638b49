import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "./start-server.js";
import { startServer } from "./start-server.js";
import { createTestPlugin } from "./testdata/test-plugin.js";

// An HTTP/1.1 request answered before its body was read (over readMaxBytes) must still deliver
// its answer: the server closes the connection after a lingering read instead of resetting it
// while the client is still sending.
describe("startServer answering an oversized HTTP/1.1 request", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      plugin: createTestPlugin().plugin,
      logger: false,
      readMaxBytes: 64 * 1024,
    });
  });
  afterAll(() => server.close());

  it("delivers resource_exhausted to a client still uploading, every time", async () => {
    const body = JSON.stringify({
      resource: {
        provider: "aws",
        resourceType: "ec2",
        tags: { pad: "x".repeat(2 * 1024 * 1024) },
      },
    });
    for (let i = 0; i < 8; i++) {
      const res = await fetch(`${server.url}/costplugin.v1.CostSourceService/GetProjectedCost`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      expect(res.status).toBe(429);
      expect(((await res.json()) as { code: string }).code).toBe("resource_exhausted");
    }
    const ok = await fetch(`${server.url}/costplugin.v1.CostSourceService/Name`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(ok.status).toBe(200);
  });
});
