import type { CheckResult } from "./check-result.js";
import type { ProtocolProbe } from "./conformance-check.js";
import type { ConformanceLevel } from "./levels.js";

/** Counts of results by status. */
export interface ConformanceSummary {
  readonly pass: number;
  readonly fail: number;
  readonly skipped: number;
  readonly notApplicable: number;
  readonly total: number;
}

/** The outcome of a conformance run. */
export interface ConformanceReport {
  /** What was checked: the URL, or the plugin command when the kit started it. */
  readonly target: string;
  /** The URL the checks talked to; absent when a started plugin never announced its port. */
  readonly url?: string;
  /** The level of the run. */
  readonly level: ConformanceLevel;
  /** Which selected protocols the plugin speaks, as probed before the checks. */
  readonly protocols: readonly ProtocolProbe[];
  /** When the run started (ISO 8601). */
  readonly startedAt: string;
  /** How long it took, in milliseconds. */
  readonly durationMs: number;
  /** One result per check and protocol (or per check, for whole-plugin checks), in run order. */
  readonly results: readonly CheckResult[];
  /** Counts by status. */
  readonly summary: ConformanceSummary;
  /** True when no result failed. */
  readonly ok: boolean;
}

/** Counts results by status. */
export function summarizeResults(results: readonly CheckResult[]): ConformanceSummary {
  const count = (status: CheckResult["status"]) =>
    results.filter((result) => result.status === status).length;
  return {
    pass: count("pass"),
    fail: count("fail"),
    skipped: count("skipped"),
    notApplicable: count("not-applicable"),
    total: results.length,
  };
}

/** The ids of the checks that failed on at least one protocol, sorted, without duplicates. */
export function failedCheckIds(report: ConformanceReport): string[] {
  return [
    ...new Set(
      report.results.filter((result) => result.status === "fail").map((result) => result.id),
    ),
  ].sort();
}
