import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApi, json, type TestApi, testEngines } from "../test-support.js";

interface Page {
  items: Array<{
    id: string;
    task_id: string;
    model_id: string;
    status: string;
    created_at: string;
  }>;
  next_cursor: string | null;
}

describe.each(testEngines)("responseRoutes on %s", (engine) => {
  let api: TestApi;
  const ids: Record<string, string> = {};
  let taskA: string;
  let taskB: string;
  beforeAll(async () => {
    api = await buildTestApi({ engine });
    const prompt = json(
      await api.call("admin", {
        method: "POST",
        url: "/api/v1/prompts",
        payload: { name: "p", template: "t" },
      }),
    );
    const mk = async (name: string, model: string) =>
      json(
        await api.call("admin", {
          method: "POST",
          url: "/api/v1/tasks",
          payload: { name, prompt_id: prompt.id, model_id: model },
        }),
      ).id as string;
    taskA = await mk("a", "offline:echo");
    taskB = await mk("b", "anthropic:claude-3-5-haiku-latest");
    const exec = async (task: string) =>
      json(await api.call("operator", { method: "POST", url: `/api/v1/tasks/${task}/execute` }))
        .id as string;
    ids.a1 = await exec(taskA);
    api.clock.advance(60_000);
    ids.b1 = await exec(taskB);
    api.clock.advance(60_000);
    ids.a2 = await exec(taskA);
  });
  afterAll(async () => {
    await api?.close();
  });

  const list = async (query: string) =>
    json<Page>(await api.call("viewer", { method: "GET", url: `/api/v1/responses${query}` }));

  it("lists every response newest first", async () => {
    expect((await list("")).items.map((r) => r.id)).toEqual([ids.a2, ids.b1, ids.a1]);
  });

  it("filters by task, model and status", async () => {
    expect((await list(`?task_id=${taskA}`)).items.map((r) => r.id)).toEqual([ids.a2, ids.a1]);
    expect(
      (await list("?model_id=anthropic:claude-3-5-haiku-latest")).items.map((r) => r.id),
    ).toEqual([ids.b1]);
    expect((await list("?status=failed")).items.map((r) => r.id)).toEqual([ids.b1]);
    expect((await list("?status=succeeded")).items.map((r) => r.id)).toEqual([ids.a2, ids.a1]);
  });

  it("filters by time with since (inclusive) and until (exclusive)", async () => {
    expect((await list("?since=2025-01-06T08:01:00Z")).items.map((r) => r.id)).toEqual([
      ids.a2,
      ids.b1,
    ]);
    expect((await list("?until=2025-01-06T08:01:00Z")).items.map((r) => r.id)).toEqual([ids.a1]);
    expect(
      (await list("?since=2025-01-06T08:00:30Z&until=2025-01-06T08:01:30Z")).items.map((r) => r.id),
    ).toEqual([ids.b1]);
  });

  it("refuses malformed filters with 400", async () => {
    for (const q of [
      "?status=exploded",
      "?since=yesterday",
      "?limit=0",
      "?limit=1000",
      "?cursor=%%%",
      "?cursor=abc",
      "?colour=red",
    ]) {
      const res = await api.call("viewer", { method: "GET", url: `/api/v1/responses${q}` });
      expect(res.statusCode, q).toBe(400);
    }
  });

  it("reads one response and answers 404 for an unknown id", async () => {
    const one = json(
      await api.call("viewer", { method: "GET", url: `/api/v1/responses/${ids.b1}` }),
    );
    expect(one).toMatchObject({ id: ids.b1, status: "failed", task_name: "b" });
    expect(
      (await api.call("viewer", { method: "GET", url: "/api/v1/responses/nope" })).statusCode,
    ).toBe(404);
  });
});
