/**
 * How demanding a conformance run is. Each level includes the ones below it: `basic` checks
 * correctness, `standard` adds shapes, robustness and the public latency bars, `advanced` adds
 * the stricter bars, 50 concurrent callers and the 30-day actual-cost query.
 */
export type ConformanceLevel = "basic" | "standard" | "advanced";

/** Every level, from the least to the most demanding. */
export const conformanceLevels: readonly ConformanceLevel[] = ["basic", "standard", "advanced"];

/** Whether a check of level `checkLevel` runs in a run at level `selected`. */
export function levelIncludes(selected: ConformanceLevel, checkLevel: ConformanceLevel): boolean {
  return conformanceLevels.indexOf(checkLevel) <= conformanceLevels.indexOf(selected);
}
