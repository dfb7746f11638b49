import { SLIStatus } from "@costplugin/proto";
import type { SliTargets } from "./sli-targets.js";
import { sliStatus } from "./sli-targets.js";
import type { WindowSummary } from "./sli-window.js";

/** Names of the standard SLIs, in the order they are answered. */
export const sliNames = ["availability", "error_rate", "latency_p95", "latency_p99"] as const;

/** One of `sliNames`. */
export type SliName = (typeof sliNames)[number];

/** A computed SLI, shaped like `costplugin.v1.ServiceLevelIndicator`. */
export interface SliValue {
  readonly name: SliName;
  readonly description: string;
  readonly value: number;
  readonly unit: string;
  readonly targetValue: number;
  readonly status: SLIStatus;
}

/**
 * Computes the four standard SLIs from a window summary. With no request in the range the
 * values are availability 100, error rate 0 and latencies 0 with status UNSPECIFIED: nothing
 * failed, but there is no evidence to judge against a target.
 */
export function computeSlis(
  summary: WindowSummary,
  targets: SliTargets,
  warningFactor: number,
): SliValue[] {
  const empty = summary.total === 0;
  const faultShare = empty ? 0 : (summary.faults / summary.total) * 100;
  const judge = (value: number, target: number, direction: Parameters<typeof sliStatus>[2]) =>
    empty ? SLIStatus.SLI_STATUS_UNSPECIFIED : sliStatus(value, target, direction, warningFactor);
  const availability = 100 - faultShare;
  const p95 = summary.latency.quantile(0.95) ?? 0;
  const p99 = summary.latency.quantile(0.99) ?? 0;
  return [
    {
      name: "availability",
      description:
        "Share of CostSourceService requests not ending in a server fault (internal, unavailable, data_loss, unknown, deadline_exceeded).",
      value: availability,
      unit: "percent",
      targetValue: targets.availability,
      status: judge(availability, targets.availability, "higher-is-better"),
    },
    {
      name: "error_rate",
      description: "Share of CostSourceService requests ending in a server fault.",
      value: faultShare,
      unit: "percent",
      targetValue: targets.errorRate,
      status: judge(faultShare, targets.errorRate, "lower-is-better"),
    },
    {
      name: "latency_p95",
      description: "95th percentile duration of CostSourceService requests (nearest rank).",
      value: p95,
      unit: "seconds",
      targetValue: targets.latencyP95,
      status: judge(p95, targets.latencyP95, "lower-is-better"),
    },
    {
      name: "latency_p99",
      description: "99th percentile duration of CostSourceService requests (nearest rank).",
      value: p99,
      unit: "seconds",
      targetValue: targets.latencyP99,
      status: judge(p99, targets.latencyP99, "lower-is-better"),
    },
  ];
}
