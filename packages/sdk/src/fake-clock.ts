import type { Clock } from "./clock.js";

/** A clock that moves only when told: for deterministic durations, SLI windows and health times. */
export interface FakeClock extends Clock {
  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void;
  /** Sets the clock to `ms` epoch milliseconds. */
  set(ms: number): void;
}

/** Creates a fake clock starting at `startMs` (default 2025-01-01T00:00:00Z). */
export function createFakeClock(startMs = Date.UTC(2025, 0, 1)): FakeClock {
  let now = startMs;
  return {
    now: () => now,
    advance(ms) {
      now += ms;
    },
    set(ms) {
      now = ms;
    },
  };
}
