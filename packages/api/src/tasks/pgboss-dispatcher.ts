import PgBoss from "pg-boss";
import type { RetryOptions } from "../api-options.js";
import { withRetry } from "../retry.js";
import type { RunDispatcher } from "./run-dispatcher.js";
import type { RunRequest, TaskRunner } from "./task-runner.js";

/** The pg-boss queue of task runs. */
export const runQueueName = "costplugin-task-runs";
/** The PostgreSQL schema holding pg-boss's tables. */
export const jobSchema = "costplugin_jobs";

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
  /**
   * Seconds a job may stay active before it is taken for abandoned and retried. Default: the
   * run's longest duration (`TaskRunner.longestRunMs`) plus a margin, computed when it is queued.
   */
  readonly expireSeconds?: number;
  /** Seconds between two looks for abandoned jobs (minimum 1). Default 60. */
  readonly maintenanceIntervalSeconds?: number;
}

/** Added to a run's longest duration before its job counts as abandoned. */
export const jobExpiryMarginSeconds = 60;

interface RunJob {
  taskId: string;
  trigger: "schedule" | "manual";
  scheduledFor: string | null;
}

/**
 * Queues scheduled runs in pg-boss on PostgreSQL. Every replica dispatches every tick; the job
 * id is the run id derived from task and tick, and pg-boss inserts a job id once, so each tick
 * becomes one job, which one worker of one replica fetches. Jobs live in the database, so a
 * restart loses none, and a job whose replica died is retried once it expires (its expiry is
 * the longest the run can take, so a live run is never taken over).
 */
export function createPgBossDispatcher(options: PgBossDispatcherOptions): RunDispatcher {
  const boss = new PgBoss({
    connectionString: options.connectionString,
    schema: jobSchema,
    max: 4,
    application_name: "costplugin-api",
    maintenanceIntervalSeconds: Math.max(1, Math.round(options.maintenanceIntervalSeconds ?? 60)),
  });
  boss.on("error", options.onError);
  let workerId: string | undefined;
  let sweeper: NodeJS.Timeout | undefined;
  // A manual run has no job: when its replica dies, a replica that sees it left running for
  // longer than it could take records it as failed, so its status does not stay `running`.
  const sweep = () =>
    options.runner.failAbandonedManualRuns(jobExpiryMarginSeconds * 1000).catch(options.onError);
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
      await sweep();
      sweeper = setInterval(sweep, jobExpiryMarginSeconds * 1000);
      sweeper.unref();
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
      // A job outliving its expiry is retried, possibly on another replica, while the first
      // attempt may still be running: the expiry must exceed the longest the run can take.
      const expireInSeconds =
        options.expireSeconds ??
        Math.ceil((await options.runner.longestRunMs(request.taskId)) / 1000) +
          jobExpiryMarginSeconds;
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
          expireInSeconds: Math.max(1, Math.round(expireInSeconds)),
        },
      );
      if (workerId !== undefined) boss.notifyWorker(workerId);
    },
    async stop() {
      clearInterval(sweeper);
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
