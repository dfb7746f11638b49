import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { createTestPostgresDatabase, type TestPostgresDatabase } from "@costplugin/store/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ApiOptions } from "../api-options.js";
import { type ApiServices, createApiServices } from "../api-services.js";
import { createManualClock, type ManualClock } from "../manual-clock.js";
import type { ResponseRecord } from "../schemas/response-schemas.js";
import { type StandIn, startStandIn } from "../test-support.js";
import { jobExpiryMarginSeconds, jobSchema, runQueueName } from "./pgboss-dispatcher.js";
import { scheduledRunId } from "./run-id.js";
import { nextRunAt } from "./task-scheduler.js";

const start = new Date("2025-01-06T08:00:00.000Z");

async function query<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

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
    await Promise.all(replicas.map((r) => r.services.start()));
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

  async function scheduledTask(name: string, cron: string) {
    const [a] = replicas as [(typeof replicas)[0]];
    const prompt = await a.services.prompts.create({ name: `${name}-prompt`, template: "tick" });
    const schedule = { cron, timezone: "UTC" };
    return a.services.tasks.create({
      name,
      description: "",
      schedule,
      prompt_id: prompt.id,
      variables: {},
      model_id: "offline:echo",
      processors: [],
      state: "active",
      next_run_at: nextRunAt({ schedule, state: "active" }, a.clock.now()),
    });
  }

  it("runs each tick exactly once although both replicas fire it", async () => {
    const [a, b] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    const task = await scheduledTask("shared-task", "*/5 * * * *");
    await Promise.all([a.services.scheduler?.sync(task.id), b.services.scheduler?.sync(task.id)]);
    const dispatched = replicas.map((r) =>
      vi.spyOn(r.services.dispatcher as NonNullable<ApiServices["dispatcher"]>, "dispatch"),
    );
    const ticks = ["2025-01-06T08:05:00.000Z", "2025-01-06T08:10:00.000Z"];
    for (const tick of ticks) {
      const finished = anyFinished();
      a.clock.advanceTo(new Date(tick));
      b.clock.advanceTo(new Date(tick));
      expect((await finished).scheduled_for).toBe(tick);
      await Promise.all([a.services.scheduler?.sync(task.id), b.services.scheduler?.sync(task.id)]);
    }
    await Promise.all([a.services.runner.idle(), b.services.runner.idle()]);
    // Both replicas dispatched both ticks: the single run is pg-boss's doing, not a lucky race.
    for (const spy of dispatched) {
      expect(spy.mock.calls.map(([request]) => request.scheduledFor)).toEqual(ticks);
      spy.mockRestore();
    }
    const runs = await a.services.responses.list({ task_id: task.id });
    expect(runs.items.map((r) => r.scheduled_for)).toEqual([...ticks].reverse());
    const jobs = await query<{ id: string; state: string }>(
      database.url,
      `SELECT id, state FROM ${jobSchema}.job WHERE name = $1 AND data->>'taskId' = $2 ORDER BY id`,
      [runQueueName, task.id],
    );
    expect(jobs.map((j) => j.id).sort()).toEqual(
      ticks.map((tick) => scheduledRunId(task.id, tick)).sort(),
    );
    expect((await a.services.tasks.get(task.id)).next_run_at).toBe("2025-01-06T08:15:00.000Z");
  });

  it("performs a run dispatched many times at once by both replicas once", async () => {
    const [a, b] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    const task = await scheduledTask("hammered-task", "0 0 1 1 *");
    const tick = "2025-01-06T08:30:00.000Z";
    const request = {
      id: scheduledRunId(task.id, tick),
      taskId: task.id,
      trigger: "schedule" as const,
      scheduledFor: tick,
    };
    const finished = anyFinished();
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 === 0 ? a : b).services.dispatcher?.dispatch(request),
      ),
    );
    expect((await finished).id).toBe(request.id);
    await Promise.all([a.services.runner.idle(), b.services.runner.idle()]);
    expect((await a.services.responses.list({ task_id: task.id })).items).toHaveLength(1);
    const jobs = await query<{ n: number }>(
      database.url,
      `SELECT count(*)::int AS n FROM ${jobSchema}.job WHERE id = $1`,
      [request.id],
    );
    expect(jobs[0]?.n).toBe(1);
  });

  it("gives a job an expiry above the longest the run can take", async () => {
    const [a] = replicas as [(typeof replicas)[0]];
    const task = await scheduledTask("expiring-task", "0 0 1 1 *");
    await a.services.settings.saveModel("offline:echo", { timeout_ms: 200_000 });
    const longest = await a.services.runner.longestRunMs(task.id);
    // Three attempts of 200 s with two backoffs of at most 10 s.
    expect(longest).toBe(3 * 200_000 + 2 * 10_000);
    const request = {
      id: scheduledRunId(task.id, "2025-01-06T09:00:00.000Z"),
      taskId: task.id,
      trigger: "schedule" as const,
      scheduledFor: "2025-01-06T09:00:00.000Z",
    };
    const finished = anyFinished();
    await a.services.dispatcher?.dispatch(request);
    await finished;
    const [job] = await query<{ seconds: number }>(
      database.url,
      `SELECT extract(epoch FROM expire_in)::int AS seconds FROM ${jobSchema}.job WHERE id = $1`,
      [request.id],
    );
    expect(job?.seconds).toBe(longest / 1000 + jobExpiryMarginSeconds);
    await a.services.settings.saveModel("offline:echo", {});
  });

  it("drops a queued tick of a task paused before a worker took it", async () => {
    const [a, b] = replicas as [(typeof replicas)[0], (typeof replicas)[0]];
    const task = await scheduledTask("paused-task", "0 0 1 1 *");
    await a.services.tasks.setState(task.id, "paused", null);
    const tick = "2025-01-06T10:00:00.000Z";
    const performed = vi.spyOn(a.services.runner, "run");
    const performedB = vi.spyOn(b.services.runner, "run");
    await a.services.dispatcher?.dispatch({
      id: scheduledRunId(task.id, tick),
      taskId: task.id,
      trigger: "schedule",
      scheduledFor: tick,
    });
    await vi.waitFor(
      () => expect(performed.mock.calls.length + performedB.mock.calls.length).toBe(1),
      { timeout: 20_000, interval: 50 },
    );
    await Promise.all([a.services.runner.idle(), b.services.runner.idle()]);
    performed.mockRestore();
    performedB.mockRestore();
    expect((await a.services.responses.list({ task_id: task.id })).items).toEqual([]);
  });
});

describe("createPgBossDispatcher and manual runs of a dead replica", () => {
  let database: TestPostgresDatabase;
  beforeAll(async () => {
    database = await createTestPostgresDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("records a manual run left running longer than it could take as failed, and no other", async () => {
    const clock = createManualClock(start);
    const options: ApiOptions = {
      databaseUrl: database.url,
      auth: { secret: "x".repeat(32) },
      scheduler: "pg-boss",
      clock,
      jobPollingIntervalSeconds: 0.5,
    };
    const first = await createApiServices({ ...options, scheduler: "off" });
    const prompt = await first.prompts.create({ name: "p", template: "x" });
    const task = await first.tasks.create({
      name: "manual",
      description: "",
      schedule: null,
      prompt_id: prompt.id,
      variables: {},
      model_id: "offline:echo",
      processors: [],
      state: "active",
      next_run_at: null,
    });
    const left = (id: string, trigger: "manual" | "schedule", startedAt: string) =>
      first.responses.start({
        id,
        task_id: task.id,
        task_name: task.name,
        prompt_id: prompt.id,
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
        trigger,
        scheduled_for: trigger === "schedule" ? startedAt : null,
        processor_results: "[]",
        created_at: startedAt,
        started_at: startedAt,
        finished_at: null,
      });
    // The longest offline run is 3 x 30 s + 2 x 10 s = 110 s; with the margin, 170 s.
    await left("old-manual", "manual", "2025-01-06T07:57:00.000Z");
    await left("recent-manual", "manual", "2025-01-06T07:58:00.000Z");
    await left("old-scheduled", "schedule", "2025-01-06T07:00:00.000Z");
    await first.close();

    const replica = await createApiServices(options);
    try {
      await replica.start();
      expect(await replica.responses.get("old-manual")).toMatchObject({
        status: "failed",
        error: "interrupted: the process performing this run stopped before it finished",
      });
      // Might still be running elsewhere: left alone.
      expect((await replica.responses.get("recent-manual")).status).toBe("running");
      // Scheduled runs are its job's to finish (after the job expires), not the sweep's.
      expect((await replica.responses.get("old-scheduled")).status).toBe("running");
    } finally {
      await replica.close();
    }
  });
});

describe("createPgBossDispatcher when a replica is killed", () => {
  let database: TestPostgresDatabase;
  let standIn: StandIn;
  let child: ChildProcess | undefined;
  let survivor: ApiServices | undefined;
  beforeAll(async () => {
    database = await createTestPostgresDatabase();
    // The first replica's first model call hangs (the replica is killed during it); every
    // later call answers. Webhook deliveries are counted on the same server.
    let hung = false;
    standIn = await startStandIn((request) => {
      if (request.url === "/hook") return { status: 204 };
      if (!hung) {
        hung = true;
        return "hang";
      }
      return {
        status: 200,
        body: {
          choices: [{ message: { content: "answer" } }],
          usage: { prompt_tokens: 1, completion_tokens: 1 },
        },
      };
    });
  });
  afterAll(async () => {
    child?.kill("SIGKILL");
    await survivor?.close();
    await standIn?.close();
    await database?.drop();
  });

  it("completes, once each, the job it was running and the job it had queued", async () => {
    const options: ApiOptions = {
      databaseUrl: database.url,
      auth: { secret: "replica-secret-0123456789abcdefghij" },
      scheduler: "off",
      providers: { openai: { apiKey: "sk-replica", baseUrl: standIn.url, models: ["stand-in"] } },
      retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1 },
      jobPollingIntervalSeconds: 0.5,
      jobExpireSeconds: 2,
      jobMaintenanceIntervalSeconds: 1,
    };
    // Two tasks whose (yearly) tick is overdue: the first replica fires both at start.
    const setup = await createApiServices(options);
    await setup.processors.configure("webhook", {
      enabled: true,
      url: `${standIn.url}/hook`,
      secret: "whsec-0123456789abcdef",
    });
    const prompt = await setup.prompts.create({ name: "p", template: "report" });
    const due = "2020-01-01T00:00:00.000Z";
    const tasks = [];
    for (const name of ["first", "second"]) {
      tasks.push(
        await setup.tasks.create({
          name,
          description: "",
          schedule: { cron: "0 0 1 1 *", timezone: "UTC" },
          prompt_id: prompt.id,
          variables: {},
          model_id: "openai:stand-in",
          processors: ["webhook"],
          state: "active",
          next_run_at: due,
        }),
      );
    }
    await setup.close();

    // The first replica runs one job at a time: it takes one (whose model call hangs) and
    // leaves the other queued. Then it is killed without any chance to clean up.
    const packageDir = fileURLToPath(new URL("../..", import.meta.url));
    child = spawn(
      process.execPath,
      [
        "--conditions=source",
        "--import",
        "tsx",
        "src/testdata/pgboss-replica.ts",
        database.url,
        standIn.url,
      ],
      { cwd: packageDir, stdio: ["ignore", "ignore", "pipe"] },
    );
    const childErrors: string[] = [];
    child.stderr?.on("data", (chunk: Buffer) => childErrors.push(chunk.toString()));
    await vi.waitFor(
      () => {
        expect(child?.exitCode, childErrors.join("")).toBeNull();
        expect(standIn.requests.filter((r) => r.url === "/chat/completions")).toHaveLength(1);
      },
      { timeout: 30_000, interval: 50 },
    );
    const exited = once(child, "exit");
    child.kill("SIGKILL");
    await exited;
    const states = await query<{ state: string }>(
      database.url,
      `SELECT state::text AS state FROM ${jobSchema}.job WHERE name = $1`,
      [runQueueName],
    );
    expect(states.map((s) => s.state).sort()).toEqual(["active", "created"]);

    // Another replica takes over: the queued job at once, the abandoned one once it expires.
    survivor = await createApiServices({ ...options, scheduler: "pg-boss" });
    const finished: ResponseRecord[] = [];
    survivor.runner.events.on("finished", (r) => finished.push(r));
    await survivor.start();
    await vi.waitFor(() => expect(finished).toHaveLength(2), { timeout: 30_000, interval: 50 });
    await survivor.runner.idle();

    const runs = await survivor.responses.list({});
    expect(runs.items).toHaveLength(2);
    for (const task of tasks) {
      const mine = runs.items.filter((r) => r.task_id === task.id);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        id: scheduledRunId(task.id, due),
        status: "succeeded",
        trigger: "schedule",
        scheduled_for: due,
        processor_results: [{ type: "webhook", ok: true }],
      });
    }
    const deliveries = standIn.requests.filter((r) => r.url === "/hook");
    expect(deliveries.map((d) => d.headers["x-costplugin-delivery"]).sort()).toEqual(
      runs.items.map((r) => r.id).sort(),
    );
    // The hung call plus one call per run.
    expect(standIn.requests.filter((r) => r.url === "/chat/completions")).toHaveLength(3);
    const jobs = await query<{ id: string; state: string }>(
      database.url,
      `SELECT id, state FROM ${jobSchema}.job WHERE name = $1`,
      [runQueueName],
    );
    expect(jobs.map((j) => j.state)).toEqual(["completed", "completed"]);
  });
});
