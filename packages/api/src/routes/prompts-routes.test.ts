import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApi, json, type TestApi, testEngines } from "../test-support.js";

describe.each(testEngines)("promptRoutes on %s", (engine) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await buildTestApi({ engine });
  });
  afterAll(async () => {
    await api?.close();
  });

  const create = (body: Record<string, unknown>) =>
    api.call("admin", { method: "POST", url: "/api/v1/prompts", payload: body });

  it("creates a prompt and answers 201 with a Location header", async () => {
    const res = await create({
      name: "summary",
      category: "reports",
      template: "Summarise {{topic}} for {{audience}}.",
      variables: [{ name: "topic" }, { name: "audience", default: "engineers" }],
    });
    expect(res.statusCode).toBe(201);
    const body = json(res);
    expect(res.headers.location).toBe(`/api/v1/prompts/${body.id}`);
    expect(body).toMatchObject({ name: "summary", category: "reports", description: "" });
    const read = await api.call("viewer", { method: "GET", url: `/api/v1/prompts/${body.id}` });
    expect(json(read)).toEqual(body);
  });

  it("refuses a second prompt with the same name with 409", async () => {
    await create({ name: "dup", template: "x" });
    const res = await create({ name: "dup", template: "y" });
    expect(res.statusCode).toBe(409);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
  });

  it("names undeclared template variables in a 400", async () => {
    const res = await create({
      name: "bad-vars",
      template: "Hi {{who}} and {{other}}",
      variables: [{ name: "who" }],
    });
    expect(res.statusCode).toBe(400);
    expect(json(res)).toMatchObject({ undeclared_variables: ["other"] });
  });

  it("refuses templates that do not parse, partials and unknown helpers", async () => {
    for (const template of ["{{#if x}}", "{{> header}}", "{{shout x}}"]) {
      const res = await create({ name: `t-${template}`, template, variables: [{ name: "x" }] });
      expect(res.statusCode, template).toBe(400);
    }
  });

  it("lists prompts filtered by category", async () => {
    await create({ name: "cat-a-1", category: "alpha", template: "a" });
    await create({ name: "cat-b-1", category: "beta", template: "b" });
    const res = await api.call("viewer", { method: "GET", url: "/api/v1/prompts?category=alpha" });
    expect(res.statusCode).toBe(200);
    const names = json<{ items: Array<{ name: string }> }>(res).items.map((p) => p.name);
    expect(names).toEqual(["cat-a-1"]);
  });

  it("replaces a prompt with PUT and answers 404 for an unknown id", async () => {
    const created = json(await create({ name: "to-update", template: "old" }));
    const res = await api.call("admin", {
      method: "PUT",
      url: `/api/v1/prompts/${created.id}`,
      payload: { name: "to-update", template: "new {{x}}", variables: [{ name: "x", default: 1 }] },
    });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ template: "new {{x}}", created_at: created.created_at });
    const missing = await api.call("admin", {
      method: "PUT",
      url: "/api/v1/prompts/nope",
      payload: { name: "z", template: "z" },
    });
    expect(missing.statusCode).toBe(404);
  });

  it("deletes a prompt with 204, then reads 404", async () => {
    const created = json(await create({ name: "to-delete", template: "bye" }));
    const del = await api.call("admin", { method: "DELETE", url: `/api/v1/prompts/${created.id}` });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe("");
    const again = await api.call("viewer", { method: "GET", url: `/api/v1/prompts/${created.id}` });
    expect(again.statusCode).toBe(404);
  });

  it("refuses to delete a prompt a task uses with 409", async () => {
    const prompt = json(await create({ name: "in-use", template: "hello" }));
    const task = await api.call("admin", {
      method: "POST",
      url: "/api/v1/tasks",
      payload: { name: "uses-prompt", prompt_id: prompt.id, model_id: "offline:echo" },
    });
    expect(task.statusCode).toBe(201);
    const del = await api.call("admin", { method: "DELETE", url: `/api/v1/prompts/${prompt.id}` });
    expect(del.statusCode).toBe(409);
    expect(json(del).detail).toContain("uses-prompt");
  });

  it("refuses a change that would leave a task without a required variable with 409", async () => {
    const prompt = json(await create({ name: "guarded", template: "hi" }));
    await api.call("admin", {
      method: "POST",
      url: "/api/v1/tasks",
      payload: { name: "guarded-task", prompt_id: prompt.id, model_id: "offline:echo" },
    });
    const res = await api.call("admin", {
      method: "PUT",
      url: `/api/v1/prompts/${prompt.id}`,
      payload: { name: "guarded", template: "hi {{who}}", variables: [{ name: "who" }] },
    });
    expect(res.statusCode).toBe(409);
    expect(json(res).detail).toContain("missing variables: who");
  });

  it("tests a prompt: renders with variables and defaults and runs the model", async () => {
    const prompt = json(
      await create({
        name: "tested",
        template: "Report on {{topic}} for {{audience}}{{#if urgent}} (urgent){{/if}}.",
        variables: [
          { name: "topic" },
          { name: "audience", default: "ops" },
          { name: "urgent", default: false },
        ],
      }),
    );
    const res = await api.call("operator", {
      method: "POST",
      url: `/api/v1/prompts/${prompt.id}/test`,
      payload: { variables: { topic: "<costs> & more", urgent: true } },
    });
    expect(res.statusCode).toBe(200);
    const body = json<{ rendered_prompt: string; result: Record<string, unknown> }>(res);
    expect(body.rendered_prompt).toBe("Report on <costs> & more for ops (urgent).");
    expect(body.result).toMatchObject({
      status: "succeeded",
      model_id: "offline:echo",
      error: null,
      cost_estimate: 0,
    });
    expect(String(body.result.output)).toContain("Report on <costs> & more");
    const responses = json<{ items: unknown[] }>(
      await api.call("viewer", { method: "GET", url: "/api/v1/responses" }),
    );
    expect(responses.items).toEqual([]);
  });

  it("tests a prompt whose variables all have defaults when the request has no body", async () => {
    const prompt = json(
      await create({
        name: "no-body",
        template: "Hello {{who}}.",
        variables: [{ name: "who", default: "team" }],
      }),
    );
    const res = await api.call("operator", {
      method: "POST",
      url: `/api/v1/prompts/${prompt.id}/test`,
    });
    expect(res.statusCode).toBe(200);
    expect(json(res).rendered_prompt).toBe("Hello team.");
  });

  it("answers 400 naming every missing variable", async () => {
    const prompt = json(
      await create({
        name: "needs-two",
        template: "{{a}} {{b}}",
        variables: [{ name: "a" }, { name: "b" }],
      }),
    );
    const res = await api.call("operator", {
      method: "POST",
      url: `/api/v1/prompts/${prompt.id}/test`,
      payload: {},
    });
    expect(res.statusCode).toBe(400);
    expect(json(res)).toMatchObject({
      detail: "missing variables: a, b",
      missing_variables: ["a", "b"],
    });
  });

  it("answers 400 for a nested path absent from a variable in strict mode", async () => {
    const prompt = json(
      await create({ name: "nested", template: "{{user.name}}", variables: [{ name: "user" }] }),
    );
    const res = await api.call("operator", {
      method: "POST",
      url: `/api/v1/prompts/${prompt.id}/test`,
      payload: { variables: { user: { id: 1 } } },
    });
    expect(res.statusCode).toBe(400);
    expect(json(res).detail).toContain("name");
  });

  it("answers 400 for an unknown model in a prompt test", async () => {
    const prompt = json(await create({ name: "m-test", template: "x" }));
    const res = await api.call("operator", {
      method: "POST",
      url: `/api/v1/prompts/${prompt.id}/test`,
      payload: { model_id: "nope:model" },
    });
    expect(res.statusCode).toBe(400);
  });

  it("rejects unknown fields in the body with 400", async () => {
    const res = await create({ name: "extra", template: "x", owner: "me" });
    expect(res.statusCode).toBe(400);
    expect(json(res)).toMatchObject({ type: "urn:costplugin:problem:validation" });
    expect(json<{ errors: Array<{ path: string }> }>(res).errors[0]?.path).toBe("/owner");
  });
});
