import type { Interceptor } from "@connectrpc/connect";
import { CostSourceService } from "@costplugin/proto";
import { collectDefaultMetrics, Registry } from "prom-client";
import type { Clock } from "./clock.js";
import { systemClock } from "./clock.js";
import type { HealthProbe, HealthSnapshot } from "./health-monitor.js";
import { createHealthMonitor } from "./health-monitor.js";
import type { PluginLogger } from "./logger.js";
import { stderrLogger } from "./logger.js";
import { createRpcInterceptor } from "./rpc-interceptor.js";
import { createRpcMetrics, defaultDurationBuckets } from "./rpc-metrics.js";
import type { SliValue } from "./service-level-indicators.js";
import { computeSlis } from "./service-level-indicators.js";
import type { SliTargets } from "./sli-targets.js";
import { resolveSliTargets } from "./sli-targets.js";
import { createSliWindow } from "./sli-window.js";
import type { MillisecondRange } from "./time-range.js";

/** Options of the SLI windows. */
export interface SliOptions {
  /** Width of one SLI bucket in seconds, the resolution of SLI ranges. Default 10. */
  readonly bucketSeconds?: number;
  /** How long SLI buckets are kept, in hours. Default 24 (8,640 buckets of 10 s at most). */
  readonly retentionHours?: number;
  /** Targets; missing fields take the protocol's defaults (99.9 %, 0.1 %, 1 s, 2 s). */
  readonly targets?: Partial<SliTargets>;
  /**
   * A miss up to `(warningFactor - 1)` times the target's allowance is WARNING, beyond it
   * CRITICAL (see `sliStatus`). Default 2.
   */
  readonly warningFactor?: number;
}

/** Options of `createObservability`. */
export interface ObservabilityOptions {
  /** Time source of durations, SLI buckets and health times. Default: `systemClock`. */
  readonly clock?: Clock;
  /** Where failing health probes are logged. Default: JSON lines on stderr. */
  readonly logger?: PluginLogger;
  /**
   * Register prom-client's default process metrics (resident memory, heap, event-loop lag,
   * GC, handles) on this registry. Default true.
   */
  readonly defaultMetrics?: boolean;
  /** Buckets of `costplugin_rpc_duration_seconds`. Default: `defaultDurationBuckets`. */
  readonly durationBuckets?: readonly number[];
  /** SLI window and targets. */
  readonly sli?: SliOptions;
  /** The health probe; `createPluginRoutes` installs the plugin's own. Default: serving. */
  readonly healthProbe?: HealthProbe;
  /** A probe not answering within this many milliseconds is not serving. Default 5000. */
  readonly healthProbeTimeoutMs?: number;
}

/**
 * Everything a plugin process measures, in one place: the server serves `registry` at
 * `/metrics`, installs `interceptor` on its Connect router and asks `health()` for `/readyz`;
 * the ObservabilityService answers from the same objects, so they never disagree.
 */
export interface Observability {
  /** The prom-client registry (fresh per instance, never the global one). Register plugin metrics here. */
  readonly registry: Registry;
  /** The server-side interceptor that measures every RPC. */
  readonly interceptor: Interceptor;
  /** The clock everything here reads. */
  readonly clock: Clock;
  /** The SLI targets in force. */
  readonly sliTargets: SliTargets;
  /** Runs the health probe (shared by HealthCheck, grpc.health.v1 and readiness). */
  health(): Promise<HealthSnapshot>;
  /** Replaces the health probe; `undefined` means always serving. One probe per instance. */
  setHealthProbe(probe: HealthProbe | undefined): void;
  /** The four standard SLIs over the half-open range `[startMs, endMs)`. */
  serviceLevelIndicators(range: MillisecondRange): SliValue[];
}

/** Creates the observability of one plugin process. Invalid options throw at once. */
export function createObservability(options: ObservabilityOptions = {}): Observability {
  const clock = options.clock ?? systemClock;
  const sliTargets = resolveSliTargets(options.sli?.targets);
  const bucketSeconds = positive(options.sli?.bucketSeconds ?? 10, "sli.bucketSeconds");
  const retentionHours = positive(options.sli?.retentionHours ?? 24, "sli.retentionHours");
  const warningFactor = options.sli?.warningFactor ?? 2;
  if (!(Number.isFinite(warningFactor) && warningFactor >= 1)) {
    throw new RangeError("sli.warningFactor must be a number >= 1");
  }
  const healthProbeTimeoutMs = positive(
    options.healthProbeTimeoutMs ?? 5000,
    "healthProbeTimeoutMs",
  );

  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });
  const metrics = createRpcMetrics(registry, options.durationBuckets ?? defaultDurationBuckets);
  const sliWindow = createSliWindow({ bucketSeconds, retentionSeconds: retentionHours * 3600 });
  const monitor = createHealthMonitor({
    clock,
    logger: options.logger ?? stderrLogger,
    timeoutMs: healthProbeTimeoutMs,
    probe: options.healthProbe,
  });
  const interceptor = createRpcInterceptor({
    metrics,
    sliWindow,
    sliServices: new Set([CostSourceService.typeName]),
    clock,
  });

  return {
    registry,
    interceptor,
    clock,
    sliTargets,
    health: () => monitor.check(),
    setHealthProbe: (probe) => monitor.setProbe(probe),
    serviceLevelIndicators: (range) =>
      computeSlis(sliWindow.summarize(range), sliTargets, warningFactor),
  };
}

function positive(value: number, name: string): number {
  if (!(Number.isFinite(value) && value > 0)) {
    throw new RangeError(`${name} must be a positive number, got ${String(value)}`);
  }
  return value;
}
