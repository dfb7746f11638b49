import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { CostSourceService } from "@costplugin/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "./start-server.js";
import { startServer } from "./start-server.js";
import { createTestPlugin, secretToken } from "./testdata/test-plugin.js";

const projectedPath = "/costplugin.v1.CostSourceService/GetProjectedCost";
const resource = { provider: "aws", resourceType: "ec2", sku: "t3.micro", region: "us-east-1" };
const credentials = {
  authorization: `Bearer ${secretToken}`,
  cookie: `session=${secretToken}`,
  "x-api-key": secretToken,
};

describe("installRequestLog", () => {
  let server: RunningServer;
  const lines: string[] = [];
  const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  beforeAll(async () => {
    server = await startServer({
      plugin: createTestPlugin().plugin,
      logStream: { write: (line: string) => void lines.push(line) },
    });
  });
  afterAll(() => server.close());

  it("logs one line per Connect RPC with service, method, protocol, code, duration and the incoming request id", async () => {
    const response = await fetch(`${server.url}${projectedPath}`, {
      method: "POST",
      headers: { ...credentials, "content-type": "application/json", "x-request-id": "log-test-1" },
      body: JSON.stringify({ resource: { ...resource, tags: { token: secretToken } } }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBe("log-test-1");
    const entries = logged().filter((entry) => entry.requestId === "log-test-1");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      msg: "rpc completed",
      service: "costplugin.v1.CostSourceService",
      method: "GetProjectedCost",
      protocol: "connect",
      code: "ok",
      httpStatus: 200,
    });
    expect(entries[0]?.durationMs).toEqual(expect.any(Number));
  });

  it("logs the RPC code of a failed gRPC call although its HTTP status is 200", async () => {
    const client = createClient(CostSourceService, createGrpcTransport({ baseUrl: server.url }));
    const error = await client
      .getProjectedCost(
        { resource: { ...resource, sku: "limited" } },
        { headers: { ...credentials, "x-request-id": "log-test-grpc" } },
      )
      .then(
        () => undefined,
        (e: unknown) => ConnectError.from(e),
      );
    expect(error?.code).toBe(Code.ResourceExhausted);
    const [entry] = logged().filter((line) => line.requestId === "log-test-grpc");
    expect(entry).toMatchObject({ protocol: "grpc", code: "resource_exhausted", httpStatus: 200 });
  });

  it("logs the corrected code of a malformed binary request", async () => {
    await fetch(`${server.url}${projectedPath}`, {
      method: "POST",
      headers: { "content-type": "application/proto", "x-request-id": "log-test-garbage" },
      body: new Uint8Array([0x0a, 0xff, 0xff]),
    });
    const [entry] = logged().filter((line) => line.requestId === "log-test-garbage");
    expect(entry).toMatchObject({ code: "invalid_argument", httpStatus: 400 });
  });

  it("logs an unexpected plugin failure without the credentials it carries", async () => {
    const response = await fetch(`${server.url}${projectedPath}`, {
      method: "POST",
      headers: {
        ...credentials,
        "content-type": "application/json",
        "x-request-id": "log-test-leaky",
      },
      body: JSON.stringify({ resource: { ...resource, sku: "leaky" } }),
    });
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain(secretToken);
    const entries = logged().filter((line) => line.requestId === "log-test-leaky" || line.err);
    expect(entries.some((entry) => JSON.stringify(entry).includes("upstream answered 401"))).toBe(
      true,
    );
  });

  it("logs other requests with a URL whose credentials are redacted", async () => {
    await fetch(`${server.url}/healthz?access_token=${secretToken}`, {
      headers: { ...credentials, "x-request-id": "log-test-url" },
    });
    const [entry] = logged().filter((line) => line.requestId === "log-test-url");
    expect(entry).toMatchObject({ msg: "request completed", statusCode: 200 });
    expect(String(entry?.url)).toContain("access_token=");
  });

  it("never writes a credential to the log or to /metrics", async () => {
    const metrics = await (await fetch(`${server.url}/metrics`, { headers: credentials })).text();
    expect(metrics).not.toContain(secretToken);
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) expect(line).not.toContain(secretToken);
  });
});
