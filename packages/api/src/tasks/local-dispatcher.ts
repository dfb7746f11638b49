import type { ResponseStore } from "../store/response-store.js";
import type { RunDispatcher } from "./run-dispatcher.js";
import type { TaskRunner } from "./task-runner.js";

/**
 * Runs scheduled runs in this process. A run is recorded before the model is called and the
 * tick is marked done only after the run, so a process that stops mid-run resumes that run on
 * its next start: no run is lost. For one process only; several replicas need pg-boss.
 */
export function createLocalDispatcher(
  runner: TaskRunner,
  responses: ResponseStore,
  onError: (error: unknown) => void,
): RunDispatcher {
  let stopped = false;
  return {
    async start() {
      stopped = false;
      for (const left of await responses.unfinished()) {
        runner
          .run({
            id: left.id,
            taskId: left.task_id,
            trigger: left.trigger,
            scheduledFor: left.scheduled_for,
          })
          .catch(onError);
      }
    },
    async dispatch(request) {
      if (stopped) return;
      await runner.run(request);
    },
    async stop() {
      stopped = true;
      await runner.idle();
    },
  };
}
