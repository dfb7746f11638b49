import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "./build-app.js";
import { createTestPlugin } from "./testdata/test-plugin.js";

const namePath = "/costplugin.v1.CostSourceService/Name";
const projectedPath = "/costplugin.v1.CostSourceService/GetProjectedCost";
const resource = { provider: "aws", resourceType: "ec2", sku: "t3.micro", region: "us-east-1" };

describe("buildApp", () => {
  let app: FastifyInstance;
  let control: ReturnType<typeof createTestPlugin>["control"];
  let staticDir: string;
  beforeAll(async () => {
    staticDir = await mkdtemp(join(tmpdir(), "costplugin-static-"));
    await writeFile(join(staticDir, "index.html"), "<!doctype html><title>playground</title>");
    await writeFile(join(staticDir, "app.js"), "console.log('app')");
    const test = createTestPlugin();
    control = test.control;
    const api: FastifyPluginAsync = async (instance) => {
      instance.get("/api/v1/ping", async () => ({ pong: true }));
    };
    app = await buildApp({ plugin: test.plugin, logger: false, staticDir, extensions: [api] });
  });
  afterAll(async () => {
    await app.close();
    await rm(staticDir, { recursive: true, force: true });
  });

  it("answers Connect JSON POST", async () => {
    const response = await app.inject({
      method: "POST",
      url: projectedPath,
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ resource }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ unitPrice: 0.0104, currency: "USD" });
  });

  it("answers Connect GET for side-effect-free methods", async () => {
    const message = encodeURIComponent(JSON.stringify({ resource }));
    const response = await app.inject({
      method: "GET",
      url: `${projectedPath}?connect=v1&encoding=json&message=${message}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ costPerMonth: 7.592 });
  });

  it("answers an unknown path with a JSON 404", async () => {
    const response = await app.inject({ method: "POST", url: "/costplugin.v1.Nope/Nothing" });
    expect(response.statusCode).toBe(404);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.json()).toMatchObject({ statusCode: 404, error: "Not Found" });
  });

  it.each([
    ["text/plain", "hello"],
    ["application/xml", "<a/>"],
    ["application/x-www-form-urlencoded", "a=b"],
  ])("answers content type %s on an RPC with 415 listing what is accepted", async (type, body) => {
    const response = await app.inject({
      method: "POST",
      url: namePath,
      headers: { "content-type": type },
      payload: body,
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().message).toContain(type);
    expect(response.json().message).toContain("application/grpc-web");
    expect(response.headers["accept-post"]).toContain("application/proto");
  });

  it("answers a streaming Connect content type on a unary RPC with 415", async () => {
    const response = await app.inject({
      method: "POST",
      url: namePath,
      headers: { "content-type": "application/connect+json" },
      payload: "{}",
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().message).toContain("application/connect+json");
  });

  it("answers PUT on an RPC with 405 and the allowed methods", async () => {
    const response = await app.inject({
      method: "PUT",
      url: namePath,
      headers: { "content-type": "application/json" },
      payload: "{}",
    });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe("POST, GET");
  });

  it("answers malformed Connect JSON with invalid_argument", async () => {
    const response = await app.inject({
      method: "POST",
      url: projectedPath,
      headers: { "content-type": "application/json" },
      payload: '{"resource": {',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe("invalid_argument");
  });

  it("answers a Connect binary body that is not a message with invalid_argument (400)", async () => {
    const response = await app.inject({
      method: "POST",
      url: projectedPath,
      headers: { "content-type": "application/proto" },
      payload: Buffer.from([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01]),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: "invalid_argument" });
    expect(response.json().message).toContain("costplugin.v1.GetProjectedCostRequest");
  });

  it("serves liveness at /healthz", async () => {
    const response = await app.inject({ method: "GET", url: "/healthz" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok" });
  });

  it("answers /readyz 503 while the plugin's probe says not serving, 200 again after", async () => {
    control.setHealth({ status: "not_serving", message: "billing data is stale" });
    const down = await app.inject({ method: "GET", url: "/readyz" });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: "not_serving", message: "billing data is stale" });
    control.setHealth({ status: "serving" });
    const up = await app.inject({ method: "GET", url: "/readyz" });
    expect(up.statusCode).toBe(200);
    expect(up.json().status).toBe("serving");
  });

  it("serves Prometheus text at /metrics with the RPC counters", async () => {
    await app.inject({
      method: "POST",
      url: namePath,
      headers: { "content-type": "application/json" },
      payload: "{}",
    });
    const response = await app.inject({ method: "GET", url: "/metrics" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.body).toMatch(
      /costplugin_rpc_requests_total\{[^}]*method="Name"[^}]*code="ok"[^}]*\} [1-9]/,
    );
  });

  it("serves the static web app's index.html at /", async () => {
    const response = await app.inject({ method: "GET", url: "/" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    expect(response.body).toContain("<title>playground</title>");
  });

  it("serves the static web app's files", async () => {
    const response = await app.inject({ method: "GET", url: "/app.js" });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("console.log");
  });

  it("answers a missing static file with the JSON 404", async () => {
    const response = await app.inject({ method: "GET", url: "/missing.js" });
    expect(response.statusCode).toBe(404);
    expect(response.json().statusCode).toBe(404);
  });

  it("refuses path traversal out of the static directory", async () => {
    const response = await app.inject({ method: "GET", url: "/..%2f..%2fetc%2fpasswd" });
    expect([403, 404]).toContain(response.statusCode);
    expect(response.body).not.toContain("root:");
  });

  it("registers extensions in the same instance", async () => {
    const response = await app.inject({ method: "GET", url: "/api/v1/ping" });
    expect(response.json()).toEqual({ pong: true });
  });

  it("echoes x-request-id on every response", async () => {
    const response = await app.inject({
      method: "GET",
      url: "/healthz",
      headers: { "x-request-id": "abc-123" },
    });
    expect(response.headers["x-request-id"]).toBe("abc-123");
  });

  it("echoes a valid traceparent and derives the request id from it", async () => {
    const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    const response = await app.inject({ method: "GET", url: "/healthz", headers: { traceparent } });
    expect(response.headers.traceparent).toBe(traceparent);
    expect(response.headers["x-request-id"]).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
  });

  it("generates a request id when none came", async () => {
    const response = await app.inject({ method: "GET", url: "/healthz" });
    expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("buildApp options", () => {
  it("rejects impossible limits with a message naming the option", async () => {
    const { plugin } = createTestPlugin();
    await expect(buildApp({ plugin, readMaxBytes: 0 })).rejects.toThrow(/readMaxBytes/);
    await expect(buildApp({ plugin, timeouts: { headersMs: -1 } })).rejects.toThrow(
      /timeouts\.headersMs/,
    );
    await expect(buildApp({ plugin, port: 70_000 })).rejects.toThrow(/port/);
  });

  it("calls plugin.close and then onClose once when the app closes", async () => {
    const { plugin, control } = createTestPlugin();
    const order: string[] = [];
    const app = await buildApp({
      plugin,
      logger: false,
      onClose: () => {
        order.push(`onClose after ${control.closed.count} plugin close`);
      },
    });
    await app.close();
    expect(order).toEqual(["onClose after 1 plugin close"]);
  });
});
