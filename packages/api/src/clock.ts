/** A source of time and timers, injected so schedules can be tested without waiting. */
export interface Clock {
  /** The current instant. */
  now(): Date;
  /**
   * Calls `callback` once `delayMs` milliseconds from now have passed on this clock.
   * Returns a function that cancels the timer.
   */
  setTimer(delayMs: number, callback: () => void): () => void;
}

// Node timers overflow above 2^31-1 ms (about 24.8 days) and fire at once; longer waits are
// chained in steps no longer than this.
const maxTimerMs = 2_147_483_647;

/** The wall clock with Node timers; timers do not keep the process alive. */
export const systemClock: Clock = {
  now: () => new Date(),
  setTimer(delayMs, callback) {
    const due = Date.now() + Math.max(0, delayMs);
    let handle: NodeJS.Timeout;
    const arm = () => {
      const remaining = due - Date.now();
      handle = setTimeout(remaining > maxTimerMs ? arm : callback, Math.min(remaining, maxTimerMs));
      handle.unref();
    };
    arm();
    return () => clearTimeout(handle);
  },
};
