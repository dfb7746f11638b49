import PgBoss from "pg-boss";
import type { RetryOptions } from "../api-options.js";
import { withRetry } from "../retry.js";
import type { RunDispatcher } from "./run-dispatcher.js";
import type { RunRequest, TaskRunner } from "./task-runner.js";

/** The pg-boss queue of task runs. */
export const runQueueName = "costplugin-task-runs";

/** Options of `createPgBossDispatcher`. */
export interface PgBossDispatcherOptions {
  /** PostgreSQL URL (the API's database). */
  readonly connectionString: string;
  readonly runner: TaskRunner;
  /** Seconds between polls of an idle worker (minimum 0.5). */
  readonly pollingIntervalSeconds: number;
  /** Retries of a run whose execution failed for an infrastructure reason (not a model failure). */
  readonly retry: RetryOptions;
  readonly onError: (error: unknown) => void;
}

interface RunJob {
  taskId: string;
  trigger: "schedule" | "manual";
  scheduledFor: string | null;
}

/**
 * Queues scheduled runs in pg-boss on PostgreSQL. Every replica dispatches every tick; the job
 * id is the run id derived from task and tick, and pg-boss inserts a job id once, so each tick
 * becomes one job, which one worker of one replica fetches. Jobs live in the database, so a
 * restart loses none, and a job whose replica died is retried after it expires.
 */
export function createPgBossDispatcher(options: PgBossDispatcherOptions): RunDispatcher {
  const boss = new PgBoss({
    connectionString: options.connectionString,
    schema: "costplugin_jobs",
    max: 4,
    application_name: "costplugin-api",
  });
  boss.on("error", options.onError);
  let workerId: string | undefined;
  return {
    async start() {
      await boss.start();
      // Replicas starting together race to create the queue's partition; PostgreSQL resolves
      // that by aborting one of them with a deadlock error, and trying again then finds the queue.
      await withRetry(
        { maxAttempts: 5, initialDelayMs: 50, maxDelayMs: 1000 },
        (error) => ["40P01", "23505", "42P07"].includes((error as { code?: string }).code ?? ""),
        async () => {
          if (!(await boss.getQueue(runQueueName))) await boss.createQueue(runQueueName);
        },
      );
      workerId = await boss.work<RunJob>(
        runQueueName,
        { pollingIntervalSeconds: options.pollingIntervalSeconds, batchSize: 1 },
        async (jobs) => {
          for (const job of jobs) {
            const request: RunRequest = { id: job.id, ...job.data };
            await options.runner.run(request);
          }
        },
      );
    },
    async dispatch(request) {
      await boss.send(
        runQueueName,
        {
          taskId: request.taskId,
          trigger: request.trigger,
          scheduledFor: request.scheduledFor,
        } satisfies RunJob,
        {
          id: request.id,
          retryLimit: Math.max(0, options.retry.maxAttempts - 1),
          retryDelay: Math.max(1, Math.round(options.retry.initialDelayMs / 1000)),
          retryBackoff: true,
          expireInSeconds: 15 * 60,
        },
      );
      if (workerId !== undefined) boss.notifyWorker(workerId);
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
