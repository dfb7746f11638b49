import type { Clock } from "./clock.js";

/** A clock that only moves when told to: for scheduler tests. */
export interface ManualClock extends Clock {
  /** Moves time forward by `ms`, firing due timers in order; each sees `now()` at its due time. */
  advance(ms: number): void;
  /** Moves time forward to `instant` (never backwards), firing due timers in order. */
  advanceTo(instant: Date): void;
  /** How many timers are armed and not yet fired or cancelled. */
  pendingTimers(): number;
}

interface Timer {
  readonly at: number;
  readonly seq: number;
  readonly callback: () => void;
}

/** Creates a `ManualClock` starting at `start`. */
export function createManualClock(start: Date): ManualClock {
  let current = start.getTime();
  let seq = 0;
  const timers = new Set<Timer>();
  const clock: ManualClock = {
    now: () => new Date(current),
    setTimer(delayMs, callback) {
      const timer: Timer = { at: current + Math.max(0, delayMs), seq: seq++, callback };
      timers.add(timer);
      return () => {
        timers.delete(timer);
      };
    },
    advance(ms) {
      clock.advanceTo(new Date(current + ms));
    },
    advanceTo(instant) {
      const target = Math.max(current, instant.getTime());
      for (;;) {
        let next: Timer | undefined;
        for (const t of timers) {
          if (
            t.at <= target &&
            (next === undefined || t.at < next.at || (t.at === next.at && t.seq < next.seq))
          ) {
            next = t;
          }
        }
        if (next === undefined) break;
        timers.delete(next);
        current = Math.max(current, next.at);
        next.callback();
      }
      current = target;
    },
    pendingTimers: () => timers.size,
  };
  return clock;
}
