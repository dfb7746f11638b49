import { once } from "node:events";
import { createTestPostgresDatabase, type TestPostgresDatabase } from "@costplugin/store/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiServices, createApiServices } from "../api-services.js";
import { createManualClock, type ManualClock } from "../manual-clock.js";
import type { ResponseRecord } from "../schemas/response-schemas.js";
import { runQueueName } from "./pgboss-dispatcher.js";
import { nextRunAt } from "./task-scheduler.js";

const start = new Date("2025-01-06T08:00:00.000Z");

describe("createPgBossDispatcher with two replicas", () => {
  let database: TestPostgresDatabase;
  const replicas: Array<{ services: ApiServices; clock: ManualClock }> = [];
  beforeAll(async () => {
    database = await createTestPostgresDatabase();
    for (let i = 0; i < 2; i++) {
      const clock = createManualClock(start);
      const services = await createApiServices({
        databaseUrl: database.url,
        auth: { secret: "x".repeat(32) },
        scheduler: "pg-boss",
        clock,
        jobPollingIntervalSeconds: 0.5,
      });
      replicas.push({ services, clock });
    }
  });
  afterAll(async () => {
    for (const r of replicas) await r.services.close();
    await database?.drop();
  });

  function anyFinished(): Promise<ResponseRecord> {
    return Promise.race(
      replicas.map((r) =>
        once(r.services.runner.events, "finished").then(([x]) => x as ResponseRecord),
      ),
    );
  }

  async function jobsOfQueue(): Promise<number> {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query(
        "SELECT count(*)::int AS n FROM costplugin_jobs.job WHERE name = $1",
        [runQueueName],
      );
      return rows[0].n as number;
    } finally {
      await client.end();
    }
  }

  it("runs each tick exactly once although both replicas fire it", async () => {
    const [a, b] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    const prompt = await a.services.prompts.create({ name: "shared", template: "tick" });
    const schedule = { cron: "*/5 * * * *", timezone: "UTC" };
    const task = await a.services.tasks.create({
      name: "shared-task",
      description: "",
      schedule,
      prompt_id: prompt.id,
      variables: {},
      model_id: "offline:echo",
      processors: [],
      state: "active",
      next_run_at: nextRunAt({ schedule, state: "active" }, start),
    });
    await Promise.all([a.services.start(), b.services.start()]);
    expect(a.clock.pendingTimers()).toBeGreaterThan(0);
    expect(b.clock.pendingTimers()).toBeGreaterThan(0);

    for (const tick of ["2025-01-06T08:05:00.000Z", "2025-01-06T08:10:00.000Z"]) {
      const finished = anyFinished();
      a.clock.advanceTo(new Date(tick));
      b.clock.advanceTo(new Date(tick));
      expect((await finished).scheduled_for).toBe(tick);
      await Promise.all([a.services.scheduler?.sync(task.id), b.services.scheduler?.sync(task.id)]);
    }
    await Promise.all([a.services.runner.idle(), b.services.runner.idle()]);
    const runs = await a.services.responses.list({ task_id: task.id });
    expect(runs.items.map((r) => r.scheduled_for)).toEqual([
      "2025-01-06T08:10:00.000Z",
      "2025-01-06T08:05:00.000Z",
    ]);
    expect(await jobsOfQueue()).toBe(2);
    expect((await a.services.tasks.get(task.id)).next_run_at).toBe("2025-01-06T08:15:00.000Z");
  });
});
