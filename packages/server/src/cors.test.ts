import type { FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { buildApp } from "./build-app.js";
import type { CorsOptions } from "./server-options.js";
import { createTestPlugin } from "./testdata/test-plugin.js";

const namePath = "/costplugin.v1.CostSourceService/Name";

function preflight(
  app: FastifyInstance,
  origin: string,
  headers = "content-type,connect-protocol-version",
) {
  return app.inject({
    method: "OPTIONS",
    url: namePath,
    headers: {
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": headers,
    },
  });
}

describe("fastifyCorsOptionsFromCors", () => {
  let app: FastifyInstance | undefined;
  const build = async (cors?: CorsOptions | false) => {
    app = await buildApp({ plugin: createTestPlugin().plugin, logger: false, cors });
    return app;
  };
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it("allows loopback origins by default", async () => {
    const response = await preflight(await build(), "http://localhost:5173");
    expect(response.statusCode).toBe(204);
    expect(response.headers["access-control-allow-origin"]).toBe("http://localhost:5173");
    expect(response.headers["access-control-allow-methods"]).toBe("POST, GET");
    expect(response.headers["access-control-max-age"]).toBe("7200");
  });

  it("refuses other origins by default", async () => {
    const response = await preflight(await build(), "https://evil.example");
    expect(response.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("allows the Connect, gRPC-web, tracing and Authorization request headers", async () => {
    const response = await preflight(
      await build(),
      "http://127.0.0.1:3000",
      "content-type,connect-protocol-version,connect-timeout-ms,x-grpc-web,x-user-agent,grpc-timeout,authorization,x-request-id,traceparent",
    );
    const allowed = String(response.headers["access-control-allow-headers"])
      .toLowerCase()
      .split(/,\s*/);
    for (const name of [
      "content-type",
      "connect-protocol-version",
      "connect-timeout-ms",
      "x-grpc-web",
      "x-user-agent",
      "grpc-timeout",
      "authorization",
      "x-request-id",
      "traceparent",
    ]) {
      expect(allowed).toContain(name);
    }
  });

  it("exposes the gRPC status, request id and REST paging and rate-limit headers on actual responses", async () => {
    const response = await (await build({ allowedOrigins: ["https://app.example"] })).inject({
      method: "POST",
      url: namePath,
      headers: { origin: "https://app.example", "content-type": "application/json" },
      payload: "{}",
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["access-control-allow-origin"]).toBe("https://app.example");
    const exposed = String(response.headers["access-control-expose-headers"]).toLowerCase();
    for (const name of [
      "grpc-status",
      "grpc-message",
      "grpc-status-details-bin",
      "x-request-id",
      "link",
      "location",
      "ratelimit-remaining",
      "retry-after",
    ]) {
      expect(exposed.split(/,\s*/)).toContain(name);
    }
  });

  it("allows exactly the configured origins", async () => {
    const configured = await build({ allowedOrigins: ["https://app.example"] });
    expect(
      (await preflight(configured, "https://app.example")).headers["access-control-allow-origin"],
    ).toBe("https://app.example");
    expect(
      (await preflight(configured, "http://localhost:5173")).headers["access-control-allow-origin"],
    ).toBeUndefined();
  });

  it("allows any origin with *", async () => {
    const response = await preflight(
      await build({ allowedOrigins: "*" }),
      "https://anywhere.example",
    );
    expect(response.headers["access-control-allow-origin"]).toBe("*");
  });

  it("sends no CORS headers when switched off", async () => {
    const response = await (await build(false)).inject({
      method: "POST",
      url: namePath,
      headers: { origin: "http://localhost:5173", "content-type": "application/json" },
      payload: "{}",
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["access-control-allow-origin"]).toBeUndefined();
  });
});
