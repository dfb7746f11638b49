import type { Metric } from "@costplugin/proto";
import { MetricType } from "@costplugin/proto";

/** Requests of one method, split into successes and failures. */
export interface MethodRequests {
  readonly method: string;
  readonly ok: number;
  readonly failed: number;
}

const okCodes = new Set(["ok", "OK", "0", "success"]);

/**
 * Requests per method from GetMetrics: the first counter whose samples carry a `method` label
 * (preferring one named like `*request*`), summed over every other label; a sample counts as a
 * failure when its `code` (or `status`) label is not `ok`. Sorted by total, largest first.
 */
export function requestsByMethod(metrics: readonly Metric[]): MethodRequests[] {
  const counters = metrics.filter(
    (metric) =>
      metric.type === MetricType.COUNTER &&
      metric.samples.some((sample) => sample.labels.method !== undefined),
  );
  const counter = counters.find((metric) => /request/i.test(metric.name)) ?? counters[0];
  if (counter === undefined) return [];
  const totals = new Map<string, { ok: number; failed: number }>();
  for (const sample of counter.samples) {
    const method = sample.labels.method;
    if (method === undefined || !Number.isFinite(sample.value)) continue;
    const entry = totals.get(method) ?? { ok: 0, failed: 0 };
    const code = sample.labels.code ?? sample.labels.status ?? "ok";
    if (okCodes.has(code)) entry.ok += sample.value;
    else entry.failed += sample.value;
    totals.set(method, entry);
  }
  return [...totals.entries()]
    .map(([method, entry]) => ({ method, ...entry }))
    .sort((a, b) => b.ok + b.failed - (a.ok + a.failed) || a.method.localeCompare(b.method));
}

/** The sum of a metric's sample values (a quick figure for the metrics table). */
export function metricTotal(metric: Metric): number {
  return metric.samples.reduce(
    (sum, sample) => sum + (Number.isFinite(sample.value) ? sample.value : 0),
    0,
  );
}
