import { afterEach, describe, expect, it } from "vitest";
import { type ApiServices, createApiServices } from "../api-services.js";
import { createManualClock } from "../manual-clock.js";
import type { TaskState } from "../schemas/task-schemas.js";
import { scheduledRunId } from "./run-id.js";

const open: ApiServices[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

async function setup(state: TaskState) {
  const services = await createApiServices({
    databaseUrl: ":memory:",
    auth: { secret: "x".repeat(32) },
    scheduler: "off",
    clock: createManualClock(new Date("2025-01-06T08:00:00.000Z")),
    retry: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 2_000 },
  });
  open.push(services);
  const prompt = await services.prompts.create({ name: "p", template: "tick" });
  const task = await services.tasks.create({
    name: "t",
    description: "",
    schedule: { cron: "*/5 * * * *", timezone: "UTC" },
    prompt_id: prompt.id,
    variables: {},
    model_id: "offline:echo",
    processors: [],
    state,
    next_run_at: null,
  });
  const tick = "2025-01-06T08:05:00.000Z";
  const request = {
    id: scheduledRunId(task.id, tick),
    taskId: task.id,
    trigger: "schedule" as const,
    scheduledFor: tick,
  };
  return { services, task, request };
}

describe("createTaskRunner", () => {
  for (const state of ["paused", "stopped"] as const) {
    it(`drops a scheduled run that has not started when its task is ${state}`, async () => {
      const { services, task, request } = await setup(state);
      expect(await services.runner.run(request)).toBeUndefined();
      expect((await services.responses.list({ task_id: task.id })).items).toEqual([]);
    });
  }

  it("still performs a manual run of a paused task", async () => {
    const { services, request } = await setup("paused");
    const run = await services.runner.run({ ...request, trigger: "manual", scheduledFor: null });
    expect(run?.status).toBe("succeeded");
  });

  it("finishes a scheduled run that had started before its task was stopped", async () => {
    const { services, task, request } = await setup("active");
    await services.responses.start({
      id: request.id,
      task_id: task.id,
      task_name: task.name,
      prompt_id: task.prompt_id,
      rendered_prompt: "tick",
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
      trigger: "schedule",
      scheduled_for: request.scheduledFor,
      processor_results: "[]",
      created_at: "2025-01-06T08:05:00.000Z",
      started_at: "2025-01-06T08:05:00.000Z",
      finished_at: null,
    });
    await services.tasks.setState(task.id, "stopped", null);
    expect((await services.runner.run(request))?.status).toBe("succeeded");
  });

  it("bounds a run by its model, fallback and webhook, each timing out on every attempt", async () => {
    const { services, task } = await setup("active");
    await services.settings.saveModel("offline:echo", {
      timeout_ms: 10_000,
      fallback_model_id: "openai:gpt-4o-mini",
    });
    await services.settings.saveModel("openai:gpt-4o-mini", { timeout_ms: 20_000 });
    await services.processors.configure("webhook", { max_attempts: 4, timeout_ms: 5_000 });
    await services.tasks.update(task.id, {
      name: task.name,
      description: "",
      schedule: task.schedule,
      prompt_id: task.prompt_id,
      variables: {},
      model_id: task.model_id,
      processors: ["webhook", "file"],
      state: "active",
      next_run_at: null,
    });
    // Model: 3 x 10 s + 2 backoffs of 2 s; fallback: 3 x 20 s + 2 x 2 s; webhook: 4 x 5 s +
    // 3 x 2 s; file: 5 s.
    expect(await services.runner.longestRunMs(task.id)).toBe(34_000 + 64_000 + 26_000 + 5_000);
    expect(await services.runner.longestRunMs("no-such-task")).toBe(0);
  });
});
