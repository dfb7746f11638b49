import type { AddressInfo, Server } from "node:net";
import { Code, ConnectError, createClient, createConnectRouter } from "@connectrpc/connect";
import { CostSourceService } from "@costplugin/proto";
import { createObservability, createPluginRoutes, definePlugin } from "@costplugin/sdk";
import { fastify } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { createConnectionRouter } from "../connection-router.js";
import type { AnyRequest, AnyResponse } from "../connection-tracker.js";
import { createConnectionTracker } from "../connection-tracker.js";
import { serverDefaults } from "../server-options.js";
import { transportMatrix } from "../testdata/clients.js";
import { connectRaw } from "../testdata/raw-socket.js";
import { createFastPath } from "./fast-path.js";
import { exchange } from "./testdata/raw-exchange.js";

const resource = { provider: "aws", resourceType: "ec2", sku: "t3.micro", region: "us-east-1" };

/** A plugin whose GetProjectedCost with `sku: "wait"` waits for its signal and reports why. */
function createWaitingPlugin() {
  const reasons: unknown[] = [];
  let entered: () => void = () => {};
  const plugin = definePlugin({
    name: "waiting",
    getProjectedCost: async (request, context) => {
      if (request.resource?.sku === "wait") {
        entered();
        await new Promise<void>((_, reject) =>
          context.signal.addEventListener("abort", () => {
            reasons.push(context.signal.reason);
            reject(context.signal.reason);
          }),
        );
      }
      return { unitPrice: 1, currency: "USD", costPerMonth: 730 };
    },
  });
  const waitingEntered = () =>
    new Promise<void>((resolve) => {
      entered = resolve;
    });
  return { plugin, reasons, waitingEntered };
}

interface Harness {
  readonly url: string;
  readonly port: number;
  /** Requests the normal path (the fallback handler) received, by path. */
  readonly fallback: string[];
  readonly shutdown: AbortController;
  readonly app: ReturnType<typeof fastify>;
  close(): Promise<void>;
}

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The fast path in front of a fallback that answers 404 and records what reached it. */
async function startHarness(plugin = createWaitingPlugin().plugin): Promise<Harness> {
  const shutdown = new AbortController();
  const fastPath = createFastPath({
    readMaxBytes: 1024 * 1024,
    cors: undefined,
    shutdownSignal: shutdown.signal,
  });
  const observability = createObservability();
  const routes = createPluginRoutes(plugin, { observability });
  routes(fastPath.recordRoutes(createConnectRouter()));
  const app = fastify({ logger: false });
  fastPath.attach(app, { interceptors: [observability.interceptor] });
  const fallback: string[] = [];
  const handler = (request: AnyRequest, response: AnyResponse) => {
    fallback.push(`${request.method} ${request.url}`);
    (response as import("node:http").ServerResponse).writeHead(404).end();
  };
  const server: Server = createConnectionRouter({
    handler,
    timeouts: serverDefaults.timeouts,
    tracker: createConnectionTracker(),
    fastPath,
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    fallback,
    shutdown,
    app,
    close: async () => {
      server.close();
      await app.close();
    },
  };
}

describe("createFastPath", () => {
  it("answers every binary and JSON Connect, gRPC and gRPC-web call itself", async () => {
    harness = await startHarness();
    for (const entry of transportMatrix) {
      const client = createClient(CostSourceService, entry.create(harness.url));
      const call = client.getProjectedCost({ resource });
      if (entry.name === "gRPC-web JSON over h2c") {
        // The fallback of this harness answers 404 to whatever reaches it.
        await expect(call).rejects.toMatchObject({ code: Code.Unimplemented });
      } else {
        expect((await call).costPerMonth).toBe(730);
      }
    }
    // gRPC-web with JSON messages is the one variant left to the normal path.
    expect(harness.fallback).toEqual(["POST /costplugin.v1.CostSourceService/GetProjectedCost"]);
  });

  it("hands unknown paths, other methods, preflights and streaming types to the normal path", async () => {
    harness = await startHarness();
    const path = "/costplugin.v1.CostSourceService/GetProjectedCost";
    const sent = [
      {
        http: "2",
        method: "POST",
        path: "/costplugin.v1.CostSourceService/Nope",
        headers: { "content-type": "application/proto" },
      },
      {
        http: "1.1",
        method: "POST",
        path,
        headers: { "content-type": "application/connect+proto" },
      },
      { http: "1.1", method: "POST", path, headers: { "content-type": "text/plain" } },
      {
        http: "1.1",
        method: "POST",
        path: `${path}?x=1`,
        headers: { "content-type": "application/json" },
      },
      { http: "2", method: "GET", path: `${path}?encoding=xml&message=x`, headers: {} },
      {
        http: "1.1",
        method: "GET",
        path: "/grpc.health.v1.Health/Watch?encoding=json&message=%7B%7D",
        headers: {},
      },
      { http: "1.1", method: "POST", path, headers: { "content-type": "application/grpc" } },
    ] as const;
    for (const request of sent) {
      const answer = await exchange(harness.url, {
        ...request,
        body: request.method === "POST" ? new Uint8Array(0) : undefined,
      });
      expect(answer.status).toBe(404);
    }
    expect(harness.fallback).toHaveLength(sent.length);
  });

  it("aborts the signal of an in-flight call with the shutdown reason", async () => {
    const waiting = createWaitingPlugin();
    harness = await startHarness(waiting.plugin);
    const client = createClient(
      CostSourceService,
      transportMatrix[0]?.create(harness.url) as never,
    );
    const entered = waiting.waitingEntered();
    const call = client.getProjectedCost({ resource: { ...resource, sku: "wait" } });
    await entered;
    harness.shutdown.abort(new ConnectError("server is shutting down", Code.Unavailable));
    await expect(call).rejects.toMatchObject({ code: Code.Unavailable });
    expect(waiting.reasons).toHaveLength(1);
    expect(waiting.reasons[0]).toMatchObject({ code: Code.Unavailable });
  });

  it("aborts the signal of a call whose client went away", async () => {
    const waiting = createWaitingPlugin();
    harness = await startHarness(waiting.plugin);
    const controller = new AbortController();
    const client = createClient(
      CostSourceService,
      transportMatrix[0]?.create(harness.url) as never,
    );
    const entered = waiting.waitingEntered();
    const call = client.getProjectedCost(
      { resource: { ...resource, sku: "wait" } },
      { signal: controller.signal },
    );
    await entered;
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: Code.Canceled });
    await expect.poll(() => waiting.reasons.length).toBe(1);
    expect(waiting.reasons[0]).toMatchObject({ code: Code.Canceled });
  });

  it("leaves every request to the normal path once the app starts closing", async () => {
    harness = await startHarness();
    const app = harness.app;
    const closing = app.close();
    await closing;
    const client = createClient(
      CostSourceService,
      transportMatrix[3]?.create(harness.url) as never,
    );
    await expect(client.getProjectedCost({ resource })).rejects.toBeInstanceOf(ConnectError);
    expect(harness.fallback).toHaveLength(1);
  });

  it("keeps serving after garbage, cut-off frames and resets", async () => {
    harness = await startHarness();
    const path = "/costplugin.v1.CostSourceService/GetProjectedCost";
    const garbage = [
      new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
      new Uint8Array([0x80, 0, 0, 0, 1]),
      new Uint8Array([1, 0, 0, 0, 2, 0x1f]),
    ];
    for (const body of garbage) {
      for (const type of ["application/grpc", "application/grpc-web", "application/proto"]) {
        const answer = await exchange(harness.url, {
          http: "2",
          method: "POST",
          path,
          headers: { "content-type": type },
          body,
        });
        expect(answer.status).toBeGreaterThan(0);
      }
    }
    // A connection that announces a body and goes away in the middle of it.
    const connection = await connectRaw(harness.port);
    connection.socket.write(
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/proto\r\nContent-Length: 100\r\n\r\nabc`,
    );
    connection.socket.destroy();
    const client = createClient(
      CostSourceService,
      transportMatrix[1]?.create(harness.url) as never,
    );
    expect((await client.getProjectedCost({ resource })).costPerMonth).toBe(730);
  });
});
