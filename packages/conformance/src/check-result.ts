import type { ConformanceLevel } from "./levels.js";
import type { ConformanceProtocol } from "./protocols.js";

/**
 * The outcome of one check on one protocol: `pass`, `fail` (with what was expected and what was
 * seen), `skipped` (the check applies but could not run, e.g. no fixture was given) or
 * `not-applicable` (the check does not apply, e.g. the plugin does not speak the protocol).
 */
export type CheckStatus = "pass" | "fail" | "skipped" | "not-applicable";

/** Figures a check measured, e.g. `{ averageMs: 1.2, calls: 10 }`. */
export type CheckMeasurements = Readonly<Record<string, number>>;

/** What a check decided, before the runner adds its identity. */
export interface CheckVerdict {
  /** The outcome. */
  readonly status: CheckStatus;
  /** Why it was skipped or not applicable, or a note on a pass. */
  readonly reason?: string;
  /** On failure: what the check expected. */
  readonly expected?: string;
  /** On failure: what the plugin did instead. */
  readonly actual?: string;
  /** Figures measured on the way (performance and lifecycle checks). */
  readonly measurements?: CheckMeasurements;
}

/** One line of a conformance report: a check on one protocol (or on the whole plugin). */
export interface CheckResult extends CheckVerdict {
  /** The stable check id, e.g. `name.non-empty`. */
  readonly id: string;
  /** The level the check belongs to. */
  readonly level: ConformanceLevel;
  /** What the check asserts. */
  readonly description: string;
  /** The protocol the result is for; absent for checks of the plugin as a whole. */
  readonly protocol?: ConformanceProtocol;
  /** Wall-clock time the check took, in milliseconds. */
  readonly durationMs: number;
}

/** A passing verdict, with an optional note and measurements. */
export function pass(reason?: string, measurements?: CheckMeasurements): CheckVerdict {
  return {
    status: "pass",
    ...(reason ? { reason } : {}),
    ...(measurements ? { measurements } : {}),
  };
}

/** A failing verdict: what was expected and what was seen. */
export function fail(
  expected: string,
  actual: string,
  measurements?: CheckMeasurements,
): CheckVerdict {
  return { status: "fail", expected, actual, ...(measurements ? { measurements } : {}) };
}

/** A skipped verdict: the check applies but could not run, for `reason`. */
export function skip(reason: string): CheckVerdict {
  return { status: "skipped", reason };
}

/** A not-applicable verdict: the check does not apply, for `reason`. */
export function notApplicable(reason: string): CheckVerdict {
  return { status: "not-applicable", reason };
}
