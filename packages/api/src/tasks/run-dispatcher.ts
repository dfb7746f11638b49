import type { RunRequest } from "./task-runner.js";

/** Hands scheduled runs to whatever executes them (this process, or a job queue). */
export interface RunDispatcher {
  /** Starts executing (recovers runs a previous process left unfinished). */
  start(): Promise<void>;
  /**
   * Dispatches the run of one tick. Dispatching the same run id twice performs it once.
   * Resolves once the run is durably recorded or queued.
   */
  dispatch(request: RunRequest): Promise<void>;
  /** Stops taking runs and waits for the ones in progress. */
  stop(): Promise<void>;
}
