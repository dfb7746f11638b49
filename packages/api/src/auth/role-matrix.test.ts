import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApi, type TestApi } from "../test-support.js";
import { type Role, roles } from "./roles.js";

// The documented access of every route; the test fails when a route is added without an entry.
const expected: Record<string, Role | "public"> = {
  "GET /api/v1/prompts": "viewer",
  "POST /api/v1/prompts": "admin",
  "GET /api/v1/prompts/:id": "viewer",
  "PUT /api/v1/prompts/:id": "admin",
  "DELETE /api/v1/prompts/:id": "admin",
  "POST /api/v1/prompts/:id/test": "operator",
  "GET /api/v1/tasks": "viewer",
  "POST /api/v1/tasks": "admin",
  "GET /api/v1/tasks/:id": "viewer",
  "PUT /api/v1/tasks/:id": "admin",
  "DELETE /api/v1/tasks/:id": "admin",
  "POST /api/v1/tasks/:id/execute": "operator",
  "POST /api/v1/tasks/:id/start": "operator",
  "POST /api/v1/tasks/:id/pause": "operator",
  "POST /api/v1/tasks/:id/stop": "operator",
  "GET /api/v1/tasks/:id/history": "viewer",
  "GET /api/v1/tasks/:id/status": "viewer",
  "GET /api/v1/models": "viewer",
  "GET /api/v1/models/:id": "viewer",
  "GET /api/v1/models/:id/config": "viewer",
  "PUT /api/v1/models/:id/config": "admin",
  "POST /api/v1/models/:id/test": "operator",
  "GET /api/v1/processors": "viewer",
  "GET /api/v1/processors/:type/config": "viewer",
  "PUT /api/v1/processors/console/config": "admin",
  "PUT /api/v1/processors/file/config": "admin",
  "PUT /api/v1/processors/webhook/config": "admin",
  "GET /api/v1/responses": "viewer",
  "GET /api/v1/responses/:id": "viewer",
  "POST /api/v1/oauth/token": "public",
  "GET /api/v1/oauth/clients": "admin",
  "POST /api/v1/oauth/clients": "admin",
  "GET /api/v1/oauth/clients/:id": "admin",
  "DELETE /api/v1/oauth/clients/:id": "admin",
  "GET /api/v1/openapi.json": "public",
};

describe("role matrix", () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await buildTestApi({ docs: true });
  });
  afterAll(async () => {
    await api?.close();
  });

  const apiRoutes = () =>
    api.routes.filter((r) => r.method !== "HEAD" && !r.url.startsWith("/api/v1/docs"));

  it("declares the documented access on every route", () => {
    const declared = Object.fromEntries(apiRoutes().map((r) => [`${r.method} ${r.url}`, r.access]));
    expect(declared).toEqual(expected);
  });

  it("keeps the docs public", async () => {
    const docs = api.routes.filter(
      (r) => r.method === "GET" && r.url.startsWith("/api/v1/docs") && !r.url.includes("*"),
    );
    expect(docs.length).toBeGreaterThan(3);
    for (const route of docs) {
      const res = await api.call(null, { method: "GET", url: route.url });
      expect([200, 302], route.url).toContain(res.statusCode);
    }
  });

  for (const [route, required] of Object.entries(expected)) {
    it(`enforces ${required} on ${route} for no token and every role`, async () => {
      const [method, path] = route.split(" ") as [string, string];
      const url = path.replace(":id", "matrix-id").replace(":type", "console");
      const payload = method === "GET" || method === "DELETE" ? undefined : {};
      const anonymous = await api.call(null, { method: method as "GET", url, payload });
      if (required === "public") {
        expect(anonymous.statusCode).not.toBe(401);
        return;
      }
      expect(anonymous.statusCode).toBe(401);
      for (const role of roles) {
        const res = await api.call(role, { method: method as "GET", url, payload });
        const allowed = roles.indexOf(role) >= roles.indexOf(required);
        if (allowed) expect([401, 403], `${role} ${route}`).not.toContain(res.statusCode);
        else expect(res.statusCode, `${role} ${route}`).toBe(403);
      }
    });
  }
});
