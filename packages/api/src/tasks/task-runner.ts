import { EventEmitter } from "node:events";
import type { Clock } from "../clock.js";
import type { ModelInvoker } from "../models/model-invoker.js";
import type { ProcessorRegistry } from "../processors/processor-registry.js";
import { renderPromptTemplate } from "../prompts/prompt-template.js";
import type { ResponseRecord } from "../schemas/response-schemas.js";
import type { PromptStore } from "../store/prompt-store.js";
import type { ResponseStore } from "../store/response-store.js";
import type { TaskStore } from "../store/task-store.js";

/** One run to perform. */
export interface RunRequest {
  /** The response id; derived from task and tick for scheduled runs. */
  readonly id: string;
  readonly taskId: string;
  readonly trigger: "schedule" | "manual";
  /** The tick a scheduled run belongs to. */
  readonly scheduledFor: string | null;
}

/** Runs tasks and records each run as a response. */
export interface TaskRunner {
  /**
   * Performs a run: renders the prompt, calls the model (with retries and fallback), hands a
   * successful response to the task's processors, and records everything. A run whose id was
   * already finished is not repeated. Returns undefined when the task no longer exists, or
   * when a scheduled run that has not started yet belongs to a task that is no longer active.
   * Throws only when the database fails (so a job queue can retry).
   */
  run(request: RunRequest): Promise<ResponseRecord | undefined>;
  /**
   * The longest a run of the task can take with the current configuration, in milliseconds:
   * its model and fallback timing out on every attempt, then its processors doing the same.
   * Zero when the task does not exist.
   */
  longestRunMs(taskId: string): Promise<number>;
  /**
   * Records as failed every manual run left `running` for longer than that run could possibly
   * take (its `longestRunMs` plus `marginMs`): the process performing it stopped. Used where
   * replicas share the database, since a manual run has no job to retry it. Returns how many.
   */
  failAbandonedManualRuns(marginMs: number): Promise<number>;
  /** Emits `finished` with each recorded `ResponseRecord`. */
  readonly events: EventEmitter<{ finished: [ResponseRecord] }>;
  /** Resolves when every run in progress has finished. */
  idle(): Promise<void>;
}

/** Options of `createTaskRunner`. */
export interface TaskRunnerOptions {
  readonly tasks: TaskStore;
  readonly prompts: PromptStore;
  readonly responses: ResponseStore;
  readonly invoker: ModelInvoker;
  readonly processors: ProcessorRegistry;
  readonly clock: Clock;
}

/** Creates the task runner. */
export function createTaskRunner(options: TaskRunnerOptions): TaskRunner {
  const { tasks, prompts, responses, invoker, processors, clock } = options;
  const events = new EventEmitter<{ finished: [ResponseRecord] }>();
  const inFlight = new Map<string, Promise<ResponseRecord | undefined>>();

  async function perform(request: RunRequest): Promise<ResponseRecord | undefined> {
    const existing = await responses.find(request.id);
    if (existing && existing.status !== "running") return existing;
    const task = await tasks.find(request.taskId);
    if (!task) return existing;
    // A tick queued before its task was paused or stopped is dropped: those states promise no
    // scheduled run. A run already recorded as started is finished, whatever the state now.
    if (!existing && request.trigger === "schedule" && task.state !== "active") return undefined;
    let rendered = "";
    let variables: Record<string, unknown> = { ...task.variables };
    let renderError: string | null = null;
    try {
      const prompt = await prompts.get(task.prompt_id);
      const out = renderPromptTemplate(prompt.template, prompt.variables, task.variables);
      rendered = out.rendered;
      variables = out.variables;
    } catch (error) {
      renderError = `prompt could not be rendered: ${(error as Error).message}`;
    }
    const now = clock.now().toISOString();
    if (!existing) {
      await responses.start({
        id: request.id,
        task_id: task.id,
        task_name: task.name,
        prompt_id: task.prompt_id,
        rendered_prompt: rendered,
        variables: JSON.stringify(variables),
        model_id: task.model_id,
        output: null,
        status: "running",
        error: null,
        tokens_in: 0,
        tokens_out: 0,
        latency_ms: null,
        cost_estimate: null,
        attempts: 0,
        trigger: request.trigger,
        scheduled_for: request.scheduledFor,
        processor_results: "[]",
        created_at: now,
        started_at: now,
        finished_at: null,
      });
    }
    const base = (await responses.get(request.id)) as ResponseRecord;
    if (renderError !== null) {
      const failed = await responses.finish(request.id, {
        status: "failed",
        model_id: task.model_id,
        output: null,
        error: renderError,
        tokens_in: 0,
        tokens_out: 0,
        latency_ms: 0,
        cost_estimate: null,
        attempts: 0,
        processor_results: [],
        finished_at: clock.now().toISOString(),
      });
      events.emit("finished", failed);
      return failed;
    }
    const result = await invoker.invoke(task.model_id, rendered, "run");
    const finishedAt = clock.now().toISOString();
    const outcome = { ...result, processor_results: [], finished_at: finishedAt };
    const processorResults =
      result.status === "succeeded" && task.processors.length > 0
        ? await processors.run(task.processors, { ...base, ...outcome, status: result.status })
        : [];
    const record = await responses.finish(request.id, {
      ...outcome,
      processor_results: processorResults,
    });
    events.emit("finished", record);
    return record;
  }

  async function longestRunMs(taskId: string): Promise<number> {
    const task = await tasks.find(taskId);
    if (!task) return 0;
    return (
      (await invoker.longestInvokeMs(task.model_id)) +
      (await processors.longestRunMs(task.processors))
    );
  }

  return {
    events,
    longestRunMs,
    async failAbandonedManualRuns(marginMs) {
      let failed = 0;
      for (const left of await responses.unfinished()) {
        if (left.trigger !== "manual" || inFlight.has(left.id)) continue;
        const started = Date.parse(left.started_at ?? left.created_at);
        const bound = (await longestRunMs(left.task_id)) + marginMs;
        if (clock.now().getTime() - started <= bound) continue;
        const record = await responses.finish(left.id, {
          status: "failed",
          model_id: left.model_id,
          output: null,
          error: "interrupted: the process performing this run stopped before it finished",
          tokens_in: left.tokens_in,
          tokens_out: left.tokens_out,
          latency_ms: null,
          cost_estimate: null,
          attempts: left.attempts,
          processor_results: [],
          finished_at: clock.now().toISOString(),
        });
        events.emit("finished", record);
        failed++;
      }
      return failed;
    },
    run(request) {
      const running = inFlight.get(request.id);
      if (running) return running;
      const promise = perform(request).finally(() => inFlight.delete(request.id));
      inFlight.set(request.id, promise);
      return promise;
    },
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight.values()]);
    },
  };
}
