import type { Database } from "@costplugin/store";
import { type ApiOptions, defaultFileProcessorRoot, type RetryOptions } from "./api-options.js";
import { type Clock, systemClock } from "./clock.js";
import { createModelCatalog, type ModelCatalog } from "./models/model-catalog.js";
import { createModelInvoker, type ModelInvoker } from "./models/model-invoker.js";
import {
  createProcessorRegistry,
  type ProcessorRegistry,
} from "./processors/processor-registry.js";
import { defaultRetryOptions } from "./retry.js";
import { openApiDatabase } from "./store/api-store.js";
import { createOAuthClientStore, type OAuthClientStore } from "./store/oauth-client-store.js";
import { createPromptStore, type PromptStore } from "./store/prompt-store.js";
import { createResponseStore, type ResponseStore } from "./store/response-store.js";
import type { ApiDatabase } from "./store/schema.js";
import { createSettingsStore, type SettingsStore } from "./store/settings-store.js";
import { createTaskStore, type TaskStore } from "./store/task-store.js";
import { createUsageStore, type UsageStore } from "./store/usage-store.js";
import { createLocalDispatcher } from "./tasks/local-dispatcher.js";
import type { RunDispatcher } from "./tasks/run-dispatcher.js";
import { createTaskRunner, type TaskRunner } from "./tasks/task-runner.js";
import { createTaskScheduler, type TaskScheduler } from "./tasks/task-scheduler.js";

/** Everything behind the routes, built once from `ApiOptions`. */
export interface ApiServices {
  readonly database: Database<ApiDatabase>;
  readonly clock: Clock;
  readonly prompts: PromptStore;
  readonly tasks: TaskStore;
  readonly responses: ResponseStore;
  readonly settings: SettingsStore;
  readonly usage: UsageStore;
  readonly clients: OAuthClientStore;
  readonly catalog: ModelCatalog;
  readonly invoker: ModelInvoker;
  readonly processors: ProcessorRegistry;
  readonly runner: TaskRunner;
  /** Undefined when the scheduler is off. */
  readonly scheduler: TaskScheduler | undefined;
  /** Where the scheduler hands its runs (this process, or pg-boss); undefined when off. */
  readonly dispatcher: RunDispatcher | undefined;
  /** Starts the scheduler (idempotent). */
  start(): Promise<void>;
  /** Stops the scheduler, waits for runs in progress and closes the database (idempotent). */
  close(): Promise<void>;
}

/** Hooks for `createApiServices`. */
export interface ApiServicesHooks {
  /** Receives failures that belong to no request (scheduler, background runs). */
  readonly onError?: (error: unknown) => void;
  /** Where the console processor writes. Default standard error. */
  readonly consoleWrite?: (line: string) => void;
}

/** Opens the database (applying migrations) and builds the services. */
export async function createApiServices(
  options: ApiOptions,
  hooks: ApiServicesHooks = {},
): Promise<ApiServices> {
  const clock = options.clock ?? systemClock;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const retry: RetryOptions = { ...defaultRetryOptions, ...options.retry };
  const onError = hooks.onError ?? (() => {});
  const database = await openApiDatabase(options.databaseUrl);
  const { db } = database;
  const prompts = createPromptStore(db, clock);
  const tasks = createTaskStore(db, clock);
  const responses = createResponseStore(db);
  const settings = createSettingsStore(db, clock);
  const usage = createUsageStore(db, clock);
  const clients = createOAuthClientStore(db, clock);
  const catalog = createModelCatalog(options.providers ?? {}, fetchImpl);
  const invoker = createModelInvoker({ catalog, settings, usage, retry });
  const processors = createProcessorRegistry({
    settings,
    fileRoot: options.fileProcessorRoot ?? defaultFileProcessorRoot,
    fetch: fetchImpl,
    clock,
    retry,
    consoleWrite: hooks.consoleWrite,
  });
  const runner = createTaskRunner({ tasks, prompts, responses, invoker, processors, clock });
  const engine = options.scheduler ?? (database.dialect === "postgres" ? "pg-boss" : "local");
  if (engine === "pg-boss" && database.dialect !== "postgres") {
    await database.close();
    throw new Error("the pg-boss scheduler needs a PostgreSQL database");
  }
  let dispatcher: RunDispatcher | undefined;
  if (engine === "local") dispatcher = createLocalDispatcher(runner, responses, onError);
  if (engine === "pg-boss") {
    // pg-boss is loaded only where it is used.
    const { createPgBossDispatcher } = await import("./tasks/pgboss-dispatcher.js");
    dispatcher = createPgBossDispatcher({
      connectionString: options.databaseUrl,
      runner,
      pollingIntervalSeconds: options.jobPollingIntervalSeconds ?? 2,
      retry,
      onError,
      expireSeconds: options.jobExpireSeconds,
      maintenanceIntervalSeconds: options.jobMaintenanceIntervalSeconds,
    });
  }
  const scheduler = dispatcher
    ? createTaskScheduler({ tasks, dispatcher, clock, onError })
    : undefined;
  let started: Promise<void> | undefined;
  let closed: Promise<void> | undefined;
  return {
    database,
    clock,
    prompts,
    tasks,
    responses,
    settings,
    usage,
    clients,
    catalog,
    invoker,
    processors,
    runner,
    scheduler,
    dispatcher,
    start() {
      started ??= scheduler?.start() ?? Promise.resolve();
      return started;
    },
    close() {
      closed ??= (async () => {
        try {
          if (started) {
            await started.catch(() => {});
            await scheduler?.stop();
          }
          await runner.idle();
        } finally {
          await database.close();
        }
      })();
      return closed;
    },
  };
}
