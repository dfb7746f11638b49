/**
 * The source of time for everything the SDK measures: request durations, SLI windows and the
 * health status's change time. Injected so tests can be deterministic.
 */
export interface Clock {
  /**
   * Milliseconds since the Unix epoch, possibly fractional. Durations are differences of two
   * readings, so the clock should not step backwards while a request runs.
   */
  now(): number;
}

/**
 * The default clock: wall-clock milliseconds with sub-millisecond resolution
 * (`performance.timeOrigin + performance.now()`), so sub-millisecond calls do not all measure 0
 * and durations are immune to wall-clock adjustments during a request.
 */
export const systemClock: Clock = {
  now: () => performance.timeOrigin + performance.now(),
};
