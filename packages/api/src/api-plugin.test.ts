import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiExtension, fastifyApiPlugin } from "./api-plugin.js";
import { mintToken } from "./auth/mint-token.js";
import { createManualClock } from "./manual-clock.js";
import { buildTestApi, json, type TestApi, testSecret } from "./test-support.js";

const base = {
  databaseUrl: ":memory:",
  auth: { secret: testSecret },
  rateLimit: false as const,
  scheduler: "off" as const,
};
const auth = { authorization: `Bearer ${mintToken({ secret: testSecret, role: "viewer" })}` };

describe("fastifyApiPlugin", () => {
  it("serves under /api/v1 when registered without a prefix", async () => {
    const app = Fastify();
    await app.register(fastifyApiPlugin, base);
    expect((await app.inject({ url: "/api/v1/tasks", headers: auth })).statusCode).toBe(200);
    await app.close();
  });

  it("does not add the prefix twice when registered with { prefix: '/api/v1' }", async () => {
    const app = Fastify();
    await app.register(fastifyApiPlugin, { ...base, prefix: "/api/v1" });
    expect((await app.inject({ url: "/api/v1/tasks", headers: auth })).statusCode).toBe(200);
    expect((await app.inject({ url: "/api/v1/api/v1/tasks", headers: auth })).statusCode).toBe(404);
    await app.close();
  });

  it("works as a server extension next to other routes, which it leaves alone", async () => {
    const app = Fastify();
    app.get("/healthz", async () => ({ ok: true }));
    await app.register(createApiExtension(base));
    expect((await app.inject({ url: "/api/v1/models", headers: auth })).statusCode).toBe(200);
    const health = await app.inject({ url: "/healthz" });
    expect(health.statusCode).toBe(200);
    const outside = await app.inject({ url: "/elsewhere" });
    expect(outside.headers["content-type"]).not.toMatch(/problem/);
    await app.close();
  });

  it("starts the scheduler when the server is ready and stops it on close", async () => {
    const clock = createManualClock(new Date("2025-01-06T08:00:00Z"));
    const api = await buildTestApi({ scheduler: "local", clock });
    const prompt = json(
      await api.call("admin", {
        method: "POST",
        url: "/api/v1/prompts",
        payload: { name: "p", template: "x" },
      }),
    );
    await api.call("admin", {
      method: "POST",
      url: "/api/v1/tasks",
      payload: {
        name: "t",
        prompt_id: prompt.id,
        model_id: "offline:echo",
        schedule: { cron: "* * * * *" },
      },
    });
    expect(clock.pendingTimers()).toBe(2); // the task's tick and the periodic refresh
    await api.close();
    expect(clock.pendingTimers()).toBe(0);
  });
});

describe("fastifyApiPlugin on a real socket", () => {
  let api: TestApi;
  let url: string;
  beforeAll(async () => {
    api = await buildTestApi();
    url = await api.app.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await api?.close();
  });

  it("answers a real HTTP client with JSON and problem documents", async () => {
    const ok = await fetch(`${url}/api/v1/models`, { headers: auth });
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
    const denied = await fetch(`${url}/api/v1/models`);
    await denied.clone().arrayBuffer();
    expect(denied.status).toBe(401);
    expect(denied.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  });

  it("serves an OpenAPI 3.1 document describing every route with bearer security", async () => {
    const res = await fetch(`${url}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<
        string,
        Record<
          string,
          {
            security?: unknown[];
            requestBody?: {
              content: Record<string, { schema: { additionalProperties?: boolean } }>;
            };
          }
        >
      >;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/api/v1/tasks",
        "/api/v1/tasks/{id}",
        "/api/v1/tasks/{id}/execute",
        "/api/v1/prompts/{id}/test",
        "/api/v1/models/{id}/config",
        "/api/v1/processors/{type}/config",
        "/api/v1/responses/{id}",
        "/api/v1/oauth/token",
      ]),
    );
    expect(doc.paths["/api/v1/openapi.json"]).toBeUndefined();
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
      type: "http",
      scheme: "bearer",
    });
    expect(doc.paths["/api/v1/oauth/token"]?.post?.security).toEqual([]);
    expect(
      doc.paths["/api/v1/tasks"]?.post?.requestBody?.content["application/json"]?.schema
        .additionalProperties,
    ).toBe(false);
  });

  it("serves the browsable docs page and its assets under the prefix", async () => {
    const page = await fetch(`${url}/api/v1/docs/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("swagger-ui");
    const init = await fetch(`${url}/api/v1/docs/static/swagger-initializer.js`);
    expect(init.status).toBe(200);
    expect(await init.text()).toContain("./json");
    const bundle = await fetch(`${url}/api/v1/docs/static/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    const spec = await fetch(`${url}/api/v1/docs/json`);
    expect(((await spec.json()) as { openapi: string }).openapi).toBe("3.1.0");
  });
});
