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
    api = await buildTestApi({ docs: true });
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

  it("serves the OpenAPI 3.1 document to anonymous clients", async () => {
    const res = await fetch(`${url}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toContain("/api/v1/tasks/{id}/execute");
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

  for (const page of ["/api/v1/docs", "/api/v1/docs/"]) {
    it(`serves ${page} with every stylesheet, script and icon it links to`, async () => {
      const res = await fetch(`${url}${page}`);
      expect(res.status).toBe(200);
      const html = await res.text();
      const links = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1] as string);
      expect(links.length).toBeGreaterThanOrEqual(5);
      for (const link of links) {
        const asset = await fetch(new URL(link, `${url}${page}`));
        expect(asset.status, `${link} linked from ${page}`).toBe(200);
        await asset.arrayBuffer();
      }
    });
  }
});
