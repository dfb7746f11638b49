import { SLIStatus } from "@costplugin/proto";

/** Targets of the standard SLIs. */
export interface SliTargets {
  /** Availability target in percent. Default 99.9. */
  readonly availability: number;
  /** Error-rate target in percent. Default 0.1. */
  readonly errorRate: number;
  /** p95 latency target in seconds. Default 1. */
  readonly latencyP95: number;
  /** p99 latency target in seconds. Default 2. */
  readonly latencyP99: number;
}

/** The standard targets of the public protocol's SDK. */
export const defaultSliTargets: SliTargets = {
  availability: 99.9,
  errorRate: 0.1,
  latencyP95: 1,
  latencyP99: 2,
};

/** Fills defaults in and rejects impossible targets (at startup, not per request). */
export function resolveSliTargets(targets: Partial<SliTargets> = {}): SliTargets {
  const resolved = { ...defaultSliTargets, ...targets };
  if (!(resolved.availability > 0 && resolved.availability <= 100)) {
    throw new RangeError("sli.targets.availability must be in (0, 100]");
  }
  if (!(resolved.errorRate >= 0 && resolved.errorRate < 100)) {
    throw new RangeError("sli.targets.errorRate must be in [0, 100)");
  }
  for (const name of ["latencyP95", "latencyP99"] as const) {
    if (!(Number.isFinite(resolved[name]) && resolved[name] > 0)) {
      throw new RangeError(`sli.targets.${name} must be a positive number of seconds`);
    }
  }
  return resolved;
}

// Percentages such as 100 - 99.9 are not exact in binary floating point; a boundary value must
// land on the side the rule names.
const tolerance = 1e-9;

/**
 * The status of an SLI by its distance from the target. `allowance` is what the target lets go
 * wrong: the target itself for lower-is-better SLIs (error rate, latency), 100 - target for
 * availability. A value within the target is MEETING_TARGET; a miss no larger than
 * `(warningFactor - 1) x allowance` is WARNING; a larger miss is CRITICAL. With the default
 * factor 2, availability 99.85 % against 99.9 % is WARNING and 99.7 % is CRITICAL; p95 1.5 s
 * against 1 s is WARNING and 2.5 s is CRITICAL.
 */
export function sliStatus(
  value: number,
  target: number,
  direction: "higher-is-better" | "lower-is-better",
  warningFactor: number,
): SLIStatus {
  const miss = direction === "higher-is-better" ? target - value : value - target;
  if (miss <= tolerance) return SLIStatus.SLI_STATUS_MEETING_TARGET;
  const allowance = direction === "higher-is-better" ? 100 - target : target;
  return miss <= (warningFactor - 1) * allowance + tolerance
    ? SLIStatus.SLI_STATUS_WARNING
    : SLIStatus.SLI_STATUS_CRITICAL;
}
