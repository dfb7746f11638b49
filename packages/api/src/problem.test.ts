import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApi, json, type TestApi, testEngines, testSecret } from "./test-support.js";

const problemKeys = ["type", "title", "status", "detail", "instance", "request_id"];

describe.each(testEngines)("problem documents on %s", (engine) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await buildTestApi({ engine, bodyLimit: 4096 });
  });
  afterAll(async () => {
    await api?.close();
  });

  function expectProblem(
    res: { statusCode: number; headers: Record<string, unknown>; body: string },
    status: number,
  ) {
    expect(res.statusCode).toBe(status);
    expect(String(res.headers["content-type"])).toMatch(/^application\/problem\+json/);
    const body = json(res as never);
    expect(Object.keys(body)).toEqual(expect.arrayContaining(problemKeys));
    expect(body.status).toBe(status);
    return body;
  }

  it("answers an unknown route under the prefix with a 404 problem", async () => {
    const body = expectProblem(
      await api.call("viewer", { method: "GET", url: "/api/v1/nowhere?x=1" }),
      404,
    );
    expect(body).toMatchObject({
      type: "urn:costplugin:problem:not-found",
      title: "Not Found",
      instance: "/api/v1/nowhere",
    });
  });

  it("answers malformed JSON with 400", async () => {
    const res = await api.call("admin", {
      method: "POST",
      url: "/api/v1/prompts",
      headers: { "content-type": "application/json" },
      payload: '{"name": "x", ',
    });
    expectProblem(res, 400);
  });

  it("answers a missing body and wrong types with a validation problem listing each field", async () => {
    const missing = expectProblem(
      await api.call("admin", { method: "POST", url: "/api/v1/tasks" }),
      400,
    );
    expect(missing.type).toBe("urn:costplugin:problem:validation");
    const wrong = expectProblem(
      await api.call("admin", {
        method: "POST",
        url: "/api/v1/tasks",
        payload: { name: 5, prompt_id: [], model_id: "x", extra: 1 },
      }),
      400,
    );
    const errors = wrong.errors as Array<{ path: string; message: string }>;
    expect(errors.map((e) => e.path)).toEqual(
      expect.arrayContaining(["/extra", "/name", "/prompt_id"]),
    );
  });

  it("answers an oversized body with 413 and keeps serving", async () => {
    const res = await api.call("admin", {
      method: "POST",
      url: "/api/v1/prompts",
      payload: { name: "big", template: "x".repeat(10_000) },
    });
    expectProblem(res, 413);
    expect((await api.call("viewer", { method: "GET", url: "/api/v1/prompts" })).statusCode).toBe(
      200,
    );
  });

  it("answers an unsupported media type with 415", async () => {
    const res = await api.call("admin", {
      method: "POST",
      url: "/api/v1/prompts",
      headers: { "content-type": "application/xml" },
      payload: "<name>x</name>",
    });
    expectProblem(res, 415);
  });

  it("answers a text or form body with 415 on routes that take JSON", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded"]) {
      const body = expectProblem(
        await api.call("admin", {
          method: "POST",
          url: "/api/v1/prompts",
          headers: { "content-type": type },
          payload: "name=x&template=y",
        }),
        415,
      );
      expect(body.type).toBe("urn:costplugin:problem:unsupported-media-type");
      expect(body.detail).toBe(`content-type ${type} is not accepted here; send application/json`);
    }
  });

  it("refuses JSON nested deeper than 32 levels with 400 and keeps serving", async () => {
    const nested = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;
    const prompt = (name: string, depth: number) =>
      api.call("admin", {
        method: "POST",
        url: "/api/v1/prompts",
        headers: { "content-type": "application/json" },
        payload: `{"name":"${name}","template":"x","variables":[{"name":"v","default":${nested(depth)}}]}`,
      });
    const deep = expectProblem(await prompt("deep", 1500), 400);
    expect(deep.detail).toMatch(
      /^body\/variables\/0\/default(\/0)+ is nested deeper than 32 levels$/,
    );
    expect((await prompt("shallow", 20)).statusCode).toBe(201);
    expect((await api.call("viewer", { method: "GET", url: "/api/v1/prompts" })).statusCode).toBe(
      200,
    );
  });

  it("refuses NUL characters anywhere in the input with 400", async () => {
    const cases = [
      { method: "POST", url: "/api/v1/prompts", payload: { name: "nul", template: "a\u0000b" } },
      { method: "POST", url: "/api/v1/prompts", payload: { name: "a\u0000b", template: "x" } },
      { method: "GET", url: "/api/v1/prompts?category=%00" },
      { method: "GET", url: "/api/v1/prompts/%00" },
    ];
    for (const c of cases) {
      const res = await api.call("admin", c as never);
      expectProblem(res, 400);
    }
  });

  it("answers hostile ids and queries without a server error", async () => {
    for (const url of [
      "/api/v1/tasks/'; DROP TABLE api_tasks; --",
      "/api/v1/responses?task_id=' OR 1=1 --",
      `/api/v1/prompts/${"a".repeat(150)}`,
      "/api/v1/models/..%2F..%2Fetc%2Fpasswd/config",
    ]) {
      const res = await api.call("admin", {
        method: "GET",
        url: encodeURI(url).replaceAll("%25", "%"),
      });
      expect(res.statusCode, url).toBeLessThan(500);
    }
    expect((await api.call("viewer", { method: "GET", url: "/api/v1/tasks" })).statusCode).toBe(
      200,
    );
  });
});

describe("problem documents for server errors", () => {
  let api: TestApi;
  const logLines: string[] = [];
  beforeAll(async () => {
    api = await buildTestApi({ logLines });
  });
  afterAll(async () => {
    await api?.close();
  });

  it("answers a failing database with a 500 that tells nothing about the cause", async () => {
    await api.services.database.db.destroy();
    const token = api.token("viewer");
    const res = await api.app.inject({
      method: "GET",
      url: "/api/v1/prompts",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(500);
    const body = json(res);
    expect(body).toEqual({
      type: "urn:costplugin:problem:internal",
      title: "Internal Server Error",
      status: 500,
      detail: "internal error; the request id identifies the log entry",
      instance: "/api/v1/prompts",
      request_id: body.request_id,
    });
    expect(res.body).not.toMatch(/at .*\.ts|stack|sqlite|kysely/i);
    const logs = logLines.join("\n");
    expect(logs).toContain(String(body.request_id));
    expect(logs).not.toContain(testSecret);
    expect(logs).not.toContain(token);
    expect(logs).not.toMatch(/eyJ[A-Za-z0-9_-]+\.eyJ/);
  });
});
