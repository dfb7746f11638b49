import type { Clock } from "../clock.js";
import type { Task } from "../schemas/task-schemas.js";
import type { TaskStore } from "../store/task-store.js";
import { nextTick } from "./cron-schedule.js";
import type { RunDispatcher } from "./run-dispatcher.js";
import { scheduledRunId } from "./run-id.js";

/** Fires the ticks of active tasks. */
export interface TaskScheduler {
  /** Starts the dispatcher and arms every active task (a tick missed while down fires once now). */
  start(): Promise<void>;
  /** Re-reads one task after a change and re-arms or disarms it. */
  sync(taskId: string): Promise<void>;
  /** Re-reads every task (picks up changes made by other replicas). */
  refresh(): Promise<void>;
  /** Disarms everything and stops the dispatcher. */
  stop(): Promise<void>;
}

/** Options of `createTaskScheduler`. */
export interface TaskSchedulerOptions {
  readonly tasks: TaskStore;
  readonly dispatcher: RunDispatcher;
  readonly clock: Clock;
  /** How often every task is re-read, in milliseconds. Default 30000. */
  readonly refreshIntervalMs?: number;
  readonly onError: (error: unknown) => void;
}

/** The next tick of an active task after `from`, as stored in `next_run_at`. */
export function nextRunAt(task: Pick<Task, "schedule" | "state">, from: Date): string | null {
  if (task.state !== "active" || task.schedule === null) return null;
  return nextTick(task.schedule, from)?.toISOString() ?? null;
}

/**
 * Creates the scheduler. Each active task has one timer on the clock, due at its stored
 * `next_run_at` (computed by croner in the task's time zone). When it fires, the run of that
 * tick is dispatched under an id derived from task and tick, then `next_run_at` moves to the
 * next tick after now (ticks missed while nothing ran are not replayed one by one: one catch-up
 * run covers them). The move is conditional, so replicas racing on a tick move it once.
 */
export function createTaskScheduler(options: TaskSchedulerOptions): TaskScheduler {
  const { tasks, dispatcher, clock, onError } = options;
  const armed = new Map<string, { tick: string; cancel: () => void }>();
  const firing = new Set<string>();
  let running = false;
  let cancelRefresh: (() => void) | undefined;

  function disarm(taskId: string): void {
    armed.get(taskId)?.cancel();
    armed.delete(taskId);
  }

  function arm(task: Task): void {
    const tick = task.next_run_at;
    if (!running || task.state !== "active" || task.schedule === null || tick === null) {
      disarm(task.id);
      return;
    }
    if (armed.get(task.id)?.tick === tick) return;
    disarm(task.id);
    const delay = Date.parse(tick) - clock.now().getTime();
    const cancel = clock.setTimer(delay, () => {
      armed.delete(task.id);
      fire(task.id, tick).catch(onError);
    });
    armed.set(task.id, { tick, cancel });
  }

  async function fire(taskId: string, tick: string): Promise<void> {
    const key = `${taskId}@${tick}`;
    if (firing.has(key) || !running) return;
    firing.add(key);
    try {
      const task = await tasks.find(taskId);
      if (task && task.state === "active" && task.schedule !== null && task.next_run_at === tick) {
        await dispatcher.dispatch({
          id: scheduledRunId(taskId, tick),
          taskId,
          trigger: "schedule",
          scheduledFor: tick,
        });
        const now = clock.now();
        const from = now.getTime() > Date.parse(tick) ? now : new Date(tick);
        await tasks.advance(taskId, tick, nextRunAt(task, from));
      }
    } finally {
      firing.delete(key);
    }
    await scheduler.sync(taskId);
  }

  function scheduleRefresh(): void {
    cancelRefresh = clock.setTimer(options.refreshIntervalMs ?? 30_000, () => {
      scheduler
        .refresh()
        .catch(onError)
        .finally(() => {
          if (running) scheduleRefresh();
        });
    });
  }

  const scheduler: TaskScheduler = {
    async start() {
      await dispatcher.start();
      running = true;
      await scheduler.refresh();
      scheduleRefresh();
    },
    async sync(taskId) {
      const task = await tasks.find(taskId);
      if (task) arm(task);
      else disarm(taskId);
    },
    async refresh() {
      const active = await tasks.scheduled();
      const seen = new Set<string>();
      for (let task of active) {
        seen.add(task.id);
        if (task.next_run_at === null) {
          task = await tasks.setState(task.id, task.state, nextRunAt(task, clock.now()));
        }
        arm(task);
      }
      for (const id of [...armed.keys()]) if (!seen.has(id)) disarm(id);
    },
    async stop() {
      running = false;
      cancelRefresh?.();
      for (const id of [...armed.keys()]) disarm(id);
      await dispatcher.stop();
    },
  };
  return scheduler;
}
