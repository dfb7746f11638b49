import type { ConformanceOptions } from "../conformance-options.js";

/** A clock that advances 1 ms per reading: latency verdicts become deterministic. */
export function steppingClock(stepMs = 1): () => number {
  let now = 0;
  return () => {
    now += stepMs;
    return now;
  };
}

/**
 * Options that keep a run fast: few performance calls, a small oversized message (the test
 * servers accept 1 MiB), a fake clock.
 */
export const fastOptions = {
  level: "advanced",
  performance: { calls: 2, standardConcurrency: 3, advancedConcurrency: 4, callsPerCaller: 2 },
  oversizedMessageBytes: 1536 * 1024,
  timeouts: { callMs: 5000, probeMs: 3000, startMs: 10_000, shutdownMs: 5000 },
} satisfies Partial<ConformanceOptions>;
