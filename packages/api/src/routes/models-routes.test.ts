import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApi, json, type TestApi, testEngines } from "../test-support.js";

describe.each(testEngines)("modelRoutes on %s", (engine) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await buildTestApi({ engine });
  });
  afterAll(async () => {
    await api?.close();
  });

  it("lists the offline model as available and keyless providers as unavailable with the reason", async () => {
    const res = await api.call("viewer", { method: "GET", url: "/api/v1/models" });
    expect(res.statusCode).toBe(200);
    const items = json<{ items: Array<Record<string, unknown>> }>(res).items;
    expect(items[0]).toMatchObject({
      id: "offline:echo",
      available: true,
      unavailable_reason: null,
    });
    expect(items.find((m) => m.provider === "openai")).toMatchObject({
      available: false,
      unavailable_reason: "COSTPLUGIN_OPENAI_API_KEY is not set",
    });
    expect(items.map((m) => m.provider)).toEqual(expect.arrayContaining(["anthropic", "gemini"]));
  });

  it("reads one model and answers 404 for an unknown one", async () => {
    expect(
      json(await api.call("viewer", { method: "GET", url: "/api/v1/models/offline:echo" })),
    ).toMatchObject({ name: "echo" });
    expect(
      (await api.call("viewer", { method: "GET", url: "/api/v1/models/nope:x" })).statusCode,
    ).toBe(404);
    expect(
      (await api.call("viewer", { method: "GET", url: "/api/v1/models/nope:x/config" })).statusCode,
    ).toBe(404);
  });

  it("reads the default configuration and keeps fields left out of a PUT", async () => {
    const before = json(
      await api.call("viewer", { method: "GET", url: "/api/v1/models/openai:gpt-4o-mini/config" }),
    );
    expect(before).toEqual({
      temperature: null,
      max_tokens: 1024,
      system_message: "",
      timeout_ms: 30000,
      fallback_model_id: null,
      input_price_per_million: null,
      output_price_per_million: null,
    });
    const put = await api.call("admin", {
      method: "PUT",
      url: "/api/v1/models/openai:gpt-4o-mini/config",
      payload: { temperature: 0.5, fallback_model_id: "offline:echo" },
    });
    expect(put.statusCode).toBe(200);
    const after = json(
      await api.call("viewer", { method: "GET", url: "/api/v1/models/openai:gpt-4o-mini/config" }),
    );
    expect(after).toMatchObject({
      temperature: 0.5,
      max_tokens: 1024,
      fallback_model_id: "offline:echo",
    });
  });

  it("refuses invalid configurations with 400", async () => {
    const bad = [
      { temperature: 3 },
      { max_tokens: 0 },
      { timeout_ms: "fast" },
      { fallback_model_id: "nope:x" },
      { fallback_model_id: "offline:echo" },
      { colour: "blue" },
    ];
    for (const payload of bad) {
      const res = await api.call("admin", {
        method: "PUT",
        url: "/api/v1/models/offline:echo/config",
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it("names only the failing rule of a nullable field", async () => {
    const res = await api.call("admin", {
      method: "PUT",
      url: "/api/v1/models/offline:echo/config",
      payload: { temperature: 5 },
    });
    expect(json(res).errors).toEqual([
      { in: "body", path: "/temperature", message: "must be <= 2" },
    ]);
  });

  it("tests a model when the request has no body at all", async () => {
    const res = await api.call("operator", {
      method: "POST",
      url: "/api/v1/models/offline:echo/test",
    });
    expect(res.statusCode).toBe(200);
    expect(String(json(res).output)).toContain("Reply with one short greeting.");
    const notAnObject = await api.call("operator", {
      method: "POST",
      url: "/api/v1/models/offline:echo/test",
      headers: { "content-type": "application/json" },
      payload: "null",
    });
    expect(notAnObject.statusCode).toBe(400);
  });

  it("tests a model with a short prompt and counts the call in its usage", async () => {
    const res = await api.call("operator", {
      method: "POST",
      url: "/api/v1/models/offline:echo/test",
      payload: {},
    });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ status: "succeeded", model_id: "offline:echo", attempts: 1 });
    const model = json<{ usage: { calls: number; estimated_spend: number } }>(
      await api.call("viewer", { method: "GET", url: "/api/v1/models/offline:echo" }),
    );
    expect(model.usage.calls).toBeGreaterThanOrEqual(1);
    expect(model.usage.estimated_spend).toBe(0);
  });

  it("answers a test of an unavailable model with a failed result naming the missing key", async () => {
    const res = json(
      await api.call("operator", {
        method: "POST",
        url: "/api/v1/models/gemini:gemini-2.0-flash/test",
        payload: {},
      }),
    );
    expect(res).toMatchObject({ status: "failed", attempts: 0 });
    expect(String(res.error)).toContain("COSTPLUGIN_GEMINI_API_KEY is not set");
  });

  it("pages through models with a cursor", async () => {
    const first = await api.call("viewer", { method: "GET", url: "/api/v1/models?limit=2" });
    const page = json<{ items: Array<{ id: string }>; next_cursor: string }>(first);
    expect(page.items).toHaveLength(2);
    expect(first.headers.link).toContain('rel="next"');
    const second = json<{ items: Array<{ id: string }>; next_cursor: string | null }>(
      await api.call("viewer", {
        method: "GET",
        url: `/api/v1/models?limit=2&cursor=${page.next_cursor}`,
      }),
    );
    expect(second.items[0]?.id).not.toBe(page.items[0]?.id);
    expect(second.next_cursor).toBeNull();
  });
});
