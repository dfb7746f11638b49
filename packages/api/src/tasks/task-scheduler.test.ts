import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ApiOptions } from "../api-options.js";
import { type ApiServices, createApiServices } from "../api-services.js";
import { createManualClock, type ManualClock } from "../manual-clock.js";
import type { ResponseRecord } from "../schemas/response-schemas.js";
import { nextRunAt } from "./task-scheduler.js";

const start = new Date("2025-01-06T08:00:00.000Z");
const open: ApiServices[] = [];

async function services(clock: ManualClock, databaseUrl = ":memory:"): Promise<ApiServices> {
  const options: ApiOptions = {
    databaseUrl,
    auth: { secret: "x".repeat(32) },
    scheduler: "local",
    clock,
    retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 2 },
  };
  const s = await createApiServices(options);
  open.push(s);
  return s;
}

async function task(
  s: ApiServices,
  cron: string,
  timezone = "UTC",
  state: "active" | "paused" = "active",
) {
  const prompt = await s.prompts.create({
    name: `p-${cron}-${timezone}-${state}`,
    template: "tick",
  });
  const schedule = { cron, timezone };
  return s.tasks.create({
    name: `t-${cron}-${timezone}-${state}`,
    description: "",
    schedule,
    prompt_id: prompt.id,
    variables: {},
    model_id: "offline:echo",
    processors: [],
    state,
    next_run_at: nextRunAt({ schedule, state }, s.clock.now()),
  });
}

function nextFinished(s: ApiServices): Promise<ResponseRecord> {
  return once(s.runner.events, "finished").then(([r]) => r as ResponseRecord);
}

afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

describe("createTaskScheduler", () => {
  it("fires a task at its tick and moves next_run_at to the following tick", async () => {
    const clock = createManualClock(start);
    const s = await services(clock);
    const t = await task(s, "*/5 * * * *");
    await s.start();
    clock.advance(4 * 60_000);
    expect((await s.responses.list({ task_id: t.id })).items).toHaveLength(0);
    const finished = nextFinished(s);
    clock.advance(60_000);
    const run = await finished;
    expect(run).toMatchObject({
      task_id: t.id,
      trigger: "schedule",
      scheduled_for: "2025-01-06T08:05:00.000Z",
      status: "succeeded",
    });
    await s.runner.idle();
    await s.scheduler?.sync(t.id);
    expect((await s.tasks.get(t.id)).next_run_at).toBe("2025-01-06T08:10:00.000Z");
    expect(clock.pendingTimers()).toBeGreaterThan(0);
  });

  it("reads the cron pattern in the task's time zone", async () => {
    const clock = createManualClock(new Date("2025-07-01T00:00:00.000Z"));
    const s = await services(clock);
    const t = await task(s, "30 9 * * *", "America/New_York");
    // 09:30 in New York in July is 13:30 UTC.
    expect(t.next_run_at).toBe("2025-07-01T13:30:00.000Z");
    await s.start();
    const finished = nextFinished(s);
    clock.advanceTo(new Date("2025-07-01T13:30:00.000Z"));
    expect((await finished).scheduled_for).toBe("2025-07-01T13:30:00.000Z");
  });

  it("does not fire a paused task and fires it again once started", async () => {
    const clock = createManualClock(start);
    const s = await services(clock);
    const t = await task(s, "*/5 * * * *", "UTC", "paused");
    await s.start();
    clock.advance(11 * 60_000);
    await s.runner.idle();
    expect((await s.responses.list({ task_id: t.id })).items).toHaveLength(0);
    await s.tasks.setState(
      t.id,
      "active",
      nextRunAt({ schedule: t.schedule, state: "active" }, clock.now()),
    );
    await s.scheduler?.sync(t.id);
    const finished = nextFinished(s);
    clock.advance(5 * 60_000);
    expect((await finished).scheduled_for).toBe("2025-01-06T08:15:00.000Z");
  });

  it("stops firing a task deleted between ticks", async () => {
    const clock = createManualClock(start);
    const s = await services(clock);
    const t = await task(s, "*/5 * * * *");
    await s.start();
    await s.tasks.delete(t.id);
    await s.scheduler?.sync(t.id);
    clock.advance(10 * 60_000);
    await s.runner.idle();
    expect((await s.responses.list({})).items).toHaveLength(0);
  });

  it("keeps the schedule across a restart and runs a tick missed while down once", async () => {
    const clock = createManualClock(start);
    const file = join(mkdtempSync(join(tmpdir(), "sched-")), "api.sqlite");
    const first = await services(clock, file);
    const t = await task(first, "*/5 * * * *");
    await first.start();
    await first.close();
    clock.advance(17 * 60_000); // 08:05, 08:10 and 08:15 pass while nothing runs
    const second = await services(clock, file);
    const finished = nextFinished(second);
    await second.start();
    clock.advance(0); // the missed tick is due at once
    const run = await finished;
    expect(run.scheduled_for).toBe("2025-01-06T08:05:00.000Z");
    await second.runner.idle();
    await second.scheduler?.sync(t.id);
    expect((await second.tasks.get(t.id)).next_run_at).toBe("2025-01-06T08:20:00.000Z");
    expect((await second.responses.list({ task_id: t.id })).items).toHaveLength(1);
  });

  it("finishes a run that a stopped process left running", async () => {
    const clock = createManualClock(start);
    const file = join(mkdtempSync(join(tmpdir(), "sched-")), "api.sqlite");
    const first = await services(clock, file);
    const t = await task(first, "0 0 1 1 *");
    await first.responses.start({
      id: "left-running",
      task_id: t.id,
      task_name: t.name,
      prompt_id: t.prompt_id,
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
      scheduled_for: "2025-01-06T07:55:00.000Z",
      processor_results: "[]",
      created_at: "2025-01-06T07:55:00.000Z",
      started_at: "2025-01-06T07:55:00.000Z",
      finished_at: null,
    });
    await first.close();
    const second = await services(clock, file);
    const finished = nextFinished(second);
    await second.start();
    expect(await finished).toMatchObject({
      id: "left-running",
      status: "succeeded",
      scheduled_for: "2025-01-06T07:55:00.000Z",
    });
  });
});
