import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./pagination.js";
import { buildTestApi, json, type TestApi, testEngines } from "./test-support.js";

describe("decodeCursor", () => {
  it("round-trips a cursor and refuses anything else with a 400 error", () => {
    const cursor = { createdAt: "2025-01-06T08:00:00.000Z", id: "abc" };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    for (const bad of [
      "",
      "!!!",
      Buffer.from("[1,2]").toString("base64url"),
      Buffer.from('["nope","x"]').toString("base64url"),
      "a".repeat(600),
    ]) {
      expect(() => decodeCursor(bad), bad).toThrow(expect.objectContaining({ statusCode: 400 }));
    }
  });
});

describe.each(testEngines)("pagination on %s", (engine) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await buildTestApi({ engine });
  });
  afterAll(async () => {
    await api?.close();
  });

  const create = (name: string) =>
    api.call("admin", { method: "POST", url: "/api/v1/prompts", payload: { name, template: "x" } });

  it("walks a list to the end exactly once per item while items are inserted", async () => {
    const original: string[] = [];
    for (let i = 0; i < 23; i++) {
      // Several items share a timestamp, so the id breaks ties.
      if (i % 3 === 0) api.clock.advance(1000);
      original.push(json(await create(`walk-${i}`)).id as string);
    }
    const seen: string[] = [];
    let url = "/api/v1/prompts?limit=4";
    let pages = 0;
    for (;;) {
      const res = await api.call("viewer", { method: "GET", url });
      expect(res.statusCode).toBe(200);
      const page = json<{ items: Array<{ id: string }>; next_cursor: string | null }>(res);
      seen.push(...page.items.map((p) => p.id));
      pages++;
      // Concurrent writers: one item newer than everything, one at the same instant as the page.
      await create(`during-${pages}-a`);
      api.clock.advance(1);
      await create(`during-${pages}-b`);
      if (page.next_cursor === null) {
        expect(res.headers.link).toBeUndefined();
        break;
      }
      expect(res.headers.link).toBe(
        `</api/v1/prompts?limit=4&cursor=${page.next_cursor}>; rel="next"`,
      );
      url = `/api/v1/prompts?limit=4&cursor=${page.next_cursor}`;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => original.includes(id)).sort()).toEqual([...original].sort());
    // Newest first: the originals come in groups of three per second, latest group first.
    const groups = seen
      .filter((id) => original.includes(id))
      .map((id) => Math.floor(original.indexOf(id) / 3));
    expect(groups).toEqual([...groups].sort((a, b) => b - a));
    expect(pages).toBe(6);
  });

  it("walks responses in strict (created_at, id) order while rows land before, at and behind the cursor", async () => {
    const task = randomUUID();
    const row = (id: string, createdAt: string) =>
      api.services.responses.start({
        id,
        task_id: task,
        task_name: "paged",
        prompt_id: "p",
        rendered_prompt: "x",
        variables: "{}",
        model_id: "offline:echo",
        output: null,
        status: "running",
        error: null,
        tokens_in: 0,
        tokens_out: 0,
        latency_ms: null,
        cost_estimate: null,
        attempts: 0,
        trigger: "manual",
        scheduled_for: null,
        processor_results: "[]",
        created_at: createdAt,
        started_at: createdAt,
        finished_at: null,
      });
    const instant = (second: number) => new Date(Date.UTC(2025, 0, 6, 9, 0, second)).toISOString();
    const original: string[] = [];
    for (let i = 0; i < 30; i++) {
      const id = randomUUID();
      original.push(id);
      await row(id, instant(Math.floor(i / 4))); // four rows per instant: ids break ties
    }
    const seen: Array<{ id: string; created_at: string }> = [];
    let url = `/api/v1/responses?task_id=${task}&limit=3`;
    for (let page = 0; page < 100; page++) {
      const last = seen[seen.length - 1];
      // Writers racing the reader: a row newer than everything, rows at the cursor's own
      // instant (ids on both sides of it), and a row older than the cursor (a late commit).
      const [res] = await Promise.all([
        api.call("viewer", { method: "GET", url }),
        row(randomUUID(), instant(59)),
        ...(last ? [row(randomUUID(), last.created_at), row(randomUUID(), last.created_at)] : []),
        ...(last ? [row(randomUUID(), instant(0))] : []),
      ]);
      expect(res.statusCode).toBe(200);
      const body = json<{
        items: Array<{ id: string; created_at: string }>;
        next_cursor: string | null;
      }>(res);
      seen.push(...body.items.map(({ id, created_at }) => ({ id, created_at })));
      if (body.next_cursor === null) break;
      url = `/api/v1/responses?task_id=${task}&limit=3&cursor=${body.next_cursor}`;
    }
    const key = (r: { id: string; created_at: string }) => `${r.created_at} ${r.id}`;
    for (let i = 1; i < seen.length; i++) {
      expect(key(seen[i - 1] as never) > key(seen[i] as never), `position ${i}`).toBe(true);
    }
    const ids = seen.map((r) => r.id);
    expect(ids.filter((id) => original.includes(id)).sort()).toEqual([...original].sort());
  });

  it("keeps other query parameters in the Link header", async () => {
    for (let i = 0; i < 3; i++) {
      await api.call("admin", {
        method: "POST",
        url: "/api/v1/prompts",
        payload: { name: `cat-${i}`, category: "linked", template: "x" },
      });
    }
    const res = await api.call("viewer", {
      method: "GET",
      url: "/api/v1/prompts?category=linked&limit=2",
    });
    expect(res.headers.link).toMatch(
      /^<\/api\/v1\/prompts\?category=linked&limit=2&cursor=[A-Za-z0-9_-]+>; rel="next"$/,
    );
  });
});
