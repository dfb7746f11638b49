import http2 from "node:http2";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { CostSourceService } from "@costplugin/proto";
import { describe, expect, it } from "vitest";
import { startServer } from "./start-server.js";
import { connectRaw, countStatusLines } from "./testdata/raw-socket.js";
import { createTestPlugin } from "./testdata/test-plugin.js";

const resource = { provider: "aws", resourceType: "ec2", sku: "wait", region: "us-east-1" };
const waitBody = JSON.stringify({ resource });
const http1WaitRequest =
  "POST /costplugin.v1.CostSourceService/GetProjectedCost HTTP/1.1\r\nHost: test\r\n" +
  `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(waitBody)}\r\n\r\n${waitBody}`;

/** Whether a fresh connection to `url` is refused. */
async function refused(url: string): Promise<boolean> {
  return fetch(`${url}/healthz`).then(
    () => false,
    () => true,
  );
}

describe("installGracefulClose", () => {
  it("finishes in-flight calls of every kind, refuses new connections, then closes the plugin", async () => {
    const { plugin, control } = createTestPlugin();
    const server = await startServer({ plugin, logger: false });

    const idle = await connectRaw(server.port);
    idle.socket.write("GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n");
    await idle.waitFor((bytes) => countStatusLines(bytes) === 1 && bytes.toString().endsWith("}"));

    const http1 = await connectRaw(server.port);
    let entered = control.entered();
    http1.socket.write(http1WaitRequest);
    await entered;

    const session = http2.connect(server.url);
    const goaway = new Promise<void>((resolve) => session.once("goaway", () => resolve()));
    entered = control.entered();
    const stream = session.request({
      ":method": "POST",
      ":path": "/costplugin.v1.CostSourceService/GetProjectedCost",
      "content-type": "application/json",
    });
    const h2Response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      let status = 0;
      let body = "";
      stream.on("response", (headers) => {
        status = Number(headers[":status"]);
      });
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => {
        body += chunk;
      });
      stream.on("end", () => resolve({ status, body }));
      stream.on("error", reject);
    });
    stream.end(waitBody);
    await entered;

    const grpcClient = createClient(
      CostSourceService,
      createGrpcTransport({ baseUrl: server.url }),
    );
    entered = control.entered();
    const grpcCall = grpcClient.getProjectedCost({ resource });
    await entered;
    expect(control.waiting).toBe(3);

    const closing = server.close();
    await idle.closed;
    await goaway;
    expect(await refused(server.url)).toBe(true);
    expect(control.closed.count).toBe(0);

    control.release();
    const http1Bytes = await http1.closed;
    expect(http1Bytes.toString()).toMatch(/^HTTP\/1\.1 200 /);
    expect(http1Bytes.toString()).toMatch(/\r\nconnection: close\r\n/i);
    expect(http1Bytes.toString()).toContain('"unitPrice":0.0104');
    const h2 = await h2Response;
    expect(h2.status).toBe(200);
    expect(JSON.parse(h2.body)).toMatchObject({ currency: "USD" });
    expect((await grpcCall).currency).toBe("USD");

    await closing;
    session.close();
    expect(control.closed).toEqual({ count: 1, waitingAtClose: 0 });
  });

  it("aborts calls still running after shutdownTimeoutMs with unavailable", async () => {
    const { plugin, control } = createTestPlugin();
    const server = await startServer({ plugin, logger: false, shutdownTimeoutMs: 50 });
    const client = createClient(CostSourceService, createGrpcTransport({ baseUrl: server.url }));
    const entered = control.entered();
    const call = client.getProjectedCost({ resource }).then(
      () => undefined,
      (e: unknown) => ConnectError.from(e),
    );
    await entered;
    await server.close();
    const error = await call;
    expect(error?.code).toBe(Code.Unavailable);
    expect(error?.rawMessage).toBe("server is shutting down");
    expect(control.closed.count).toBe(1);
  });

  it("cuts off a call that ignores the abort once the grace period is over", async () => {
    const { plugin, control } = createTestPlugin();
    const server = await startServer({ plugin, logger: false, shutdownTimeoutMs: 20 });
    const client = createClient(CostSourceService, createGrpcTransport({ baseUrl: server.url }));
    const entered = control.entered();
    const call = client.getProjectedCost({ resource: { ...resource, sku: "stubborn" } }).then(
      () => undefined,
      (e: unknown) => ConnectError.from(e),
    );
    await entered;
    await server.close();
    expect((await call)?.code).toBeDefined();
    control.release();
  });

  it("closes at once when nothing is in flight", async () => {
    const { plugin, control } = createTestPlugin();
    const server = await startServer({ plugin, logger: false });
    const client = createClient(CostSourceService, createGrpcTransport({ baseUrl: server.url }));
    await client.name({});
    await server.close();
    expect(control.closed.count).toBe(1);
    expect(await refused(server.url)).toBe(true);
  });
});
