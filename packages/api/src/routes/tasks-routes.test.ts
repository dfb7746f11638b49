import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApi, json, type TestApi, testEngines } from "../test-support.js";

describe.each(testEngines)("taskRoutes on %s", (engine) => {
  let api: TestApi;
  let promptId: string;
  beforeAll(async () => {
    api = await buildTestApi({ engine });
    const prompt = await api.call("admin", {
      method: "POST",
      url: "/api/v1/prompts",
      payload: {
        name: "daily",
        template: "Daily cost note for {{team}}.",
        variables: [{ name: "team", default: "platform" }],
      },
    });
    promptId = json(prompt).id as string;
  });
  afterAll(async () => {
    await api?.close();
  });

  const createTask = (body: Record<string, unknown>) =>
    api.call("admin", {
      method: "POST",
      url: "/api/v1/tasks",
      payload: { prompt_id: promptId, model_id: "offline:echo", ...body },
    });

  it("creates a scheduled task with its next run in the task's time zone", async () => {
    const res = await createTask({
      name: "morning",
      schedule: { cron: "0 9 * * *", timezone: "Europe/Paris" },
    });
    expect(res.statusCode).toBe(201);
    // The clock stands at 2025-01-06T08:00Z = 09:00 in Paris, so the next 09:00 Paris is tomorrow.
    expect(json(res)).toMatchObject({
      state: "active",
      next_run_at: "2025-01-07T08:00:00.000Z",
      processors: [],
    });
    expect(res.headers.location).toBe(`/api/v1/tasks/${json(res).id}`);
  });

  it("refuses an invalid cron pattern, an unknown time zone, an unknown prompt or model with 400", async () => {
    const cases = [
      { name: "bad-cron", schedule: { cron: "61 * * * *" } },
      { name: "bad-tz", schedule: { cron: "0 9 * * *", timezone: "Mars/Olympus" } },
      { name: "bad-prompt", prompt_id: "nope" },
      { name: "bad-model", model_id: "nope:x" },
      { name: "bad-var", variables: { unknown_one: 1 } },
      { name: "bad-processor", processors: ["ftp"] },
    ];
    for (const body of cases) {
      const res = await createTask(body);
      expect(res.statusCode, body.name).toBe(400);
    }
  });

  it("refuses a duplicate task name with 409", async () => {
    await createTask({ name: "twice" });
    expect((await createTask({ name: "twice" })).statusCode).toBe(409);
  });

  it("executes a task now and records the response with tokens, latency and cost", async () => {
    const task = json(
      await createTask({ name: "run-now", variables: { team: "data" }, processors: ["console"] }),
    );
    const res = await api.call("operator", {
      method: "POST",
      url: `/api/v1/tasks/${task.id}/execute`,
    });
    expect(res.statusCode).toBe(201);
    const response = json(res);
    expect(response).toMatchObject({
      task_id: task.id,
      task_name: "run-now",
      status: "succeeded",
      trigger: "manual",
      rendered_prompt: "Daily cost note for data.",
      variables: { team: "data" },
      model_id: "offline:echo",
      cost_estimate: 0,
      attempts: 1,
      processor_results: [{ type: "console", ok: true, detail: null, error: null, attempts: 1 }],
    });
    expect(response.tokens_in).toBeGreaterThan(0);
    expect(res.headers.location).toBe(`/api/v1/responses/${response.id}`);
    expect(api.consoleLines.join("")).toContain('task "run-now" succeeded');
  });

  it("pauses, starts and stops a task, with next_run_at following the state", async () => {
    const task = json(await createTask({ name: "controlled", schedule: { cron: "*/5 * * * *" } }));
    expect(task.next_run_at).toBe("2025-01-06T08:05:00.000Z");
    const paused = await api.call("operator", {
      method: "POST",
      url: `/api/v1/tasks/${task.id}/pause`,
    });
    expect(json(paused)).toMatchObject({ state: "paused", next_run_at: null });
    const executePaused = await api.call("operator", {
      method: "POST",
      url: `/api/v1/tasks/${task.id}/execute`,
    });
    expect(executePaused.statusCode).toBe(201);
    const started = await api.call("operator", {
      method: "POST",
      url: `/api/v1/tasks/${task.id}/start`,
    });
    expect(json(started)).toMatchObject({
      state: "active",
      next_run_at: "2025-01-06T08:05:00.000Z",
    });
    const stopped = await api.call("operator", {
      method: "POST",
      url: `/api/v1/tasks/${task.id}/stop`,
    });
    expect(json(stopped)).toMatchObject({ state: "stopped", next_run_at: null });
    const pauseStopped = await api.call("operator", {
      method: "POST",
      url: `/api/v1/tasks/${task.id}/pause`,
    });
    expect(pauseStopped.statusCode).toBe(409);
    const executeStopped = await api.call("operator", {
      method: "POST",
      url: `/api/v1/tasks/${task.id}/execute`,
    });
    expect(executeStopped.statusCode).toBe(409);
  });

  it("reports status with last run, last error and counts, and history newest first", async () => {
    const task = json(await createTask({ name: "with-status", model_id: "openai:gpt-4o-mini" }));
    const failed = json(
      await api.call("operator", { method: "POST", url: `/api/v1/tasks/${task.id}/execute` }),
    );
    expect(failed).toMatchObject({ status: "failed" });
    expect(String(failed.error)).toContain("COSTPLUGIN_OPENAI_API_KEY is not set");
    const status = json(
      await api.call("viewer", { method: "GET", url: `/api/v1/tasks/${task.id}/status` }),
    );
    expect(status).toMatchObject({
      state: "active",
      last_status: "failed",
      last_response_id: failed.id,
      runs: 1,
      failures: 1,
    });
    expect(String(status.last_error)).toContain("cannot be called");
    const history = json<{ items: Array<{ id: string }> }>(
      await api.call("viewer", { method: "GET", url: `/api/v1/tasks/${task.id}/history` }),
    );
    expect(history.items.map((r) => r.id)).toEqual([failed.id]);
  });

  it("updates a task with PUT and deletes it, keeping its responses", async () => {
    const task = json(await createTask({ name: "editable" }));
    const run = json(
      await api.call("operator", { method: "POST", url: `/api/v1/tasks/${task.id}/execute` }),
    );
    const put = await api.call("admin", {
      method: "PUT",
      url: `/api/v1/tasks/${task.id}`,
      payload: {
        name: "edited",
        prompt_id: promptId,
        model_id: "offline:echo",
        schedule: { cron: "0 * * * *" },
      },
    });
    expect(put.statusCode).toBe(200);
    expect(json(put)).toMatchObject({
      name: "edited",
      schedule: { cron: "0 * * * *", timezone: "UTC" },
      state: "active",
    });
    const del = await api.call("admin", { method: "DELETE", url: `/api/v1/tasks/${task.id}` });
    expect(del.statusCode).toBe(204);
    expect(
      (await api.call("viewer", { method: "GET", url: `/api/v1/tasks/${task.id}` })).statusCode,
    ).toBe(404);
    expect(
      (await api.call("viewer", { method: "GET", url: `/api/v1/responses/${run.id}` })).statusCode,
    ).toBe(200);
  });

  it("answers 404 for every task route with an unknown id", async () => {
    const routes: Array<[string, string, unknown?]> = [
      ["GET", "/api/v1/tasks/none"],
      ["PUT", "/api/v1/tasks/none", { name: "x", prompt_id: promptId, model_id: "offline:echo" }],
      ["DELETE", "/api/v1/tasks/none"],
      ["POST", "/api/v1/tasks/none/execute"],
      ["POST", "/api/v1/tasks/none/start"],
      ["POST", "/api/v1/tasks/none/pause"],
      ["POST", "/api/v1/tasks/none/stop"],
      ["GET", "/api/v1/tasks/none/history"],
      ["GET", "/api/v1/tasks/none/status"],
    ];
    for (const [method, url, payload] of routes) {
      const res = await api.call("admin", {
        method: method as "GET",
        url,
        payload: payload as object,
      });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
  });

  it("lists tasks filtered by state", async () => {
    const task = json(await createTask({ name: "to-pause-list" }));
    await api.call("operator", { method: "POST", url: `/api/v1/tasks/${task.id}/pause` });
    const res = json<{ items: Array<{ id: string; state: string }> }>(
      await api.call("viewer", { method: "GET", url: "/api/v1/tasks?state=paused" }),
    );
    expect(res.items.map((t) => t.id)).toContain(task.id);
    expect(res.items.every((t) => t.state === "paused")).toBe(true);
  });
});
