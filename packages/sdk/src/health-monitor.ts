import type { Clock } from "./clock.js";
import type { PluginLogger } from "./logger.js";
import type { HealthReport } from "./plugin.js";

/** A health probe: the plugin's `health()` or any function answering the same. */
export type HealthProbe = () => HealthReport | Promise<HealthReport>;

/** The outcome of one health check. */
export interface HealthSnapshot {
  /** `serving` or `not_serving`. */
  readonly status: HealthReport["status"];
  /** The probe's message (at most 1024 characters), or a safe SDK message when it failed. */
  readonly message: string;
  /** When the status last changed (epoch ms): the first check sets it. */
  readonly lastChangeMs: number;
  /** When the probe last answered (epoch ms). */
  readonly checkedMs: number;
}

/** Options of `createHealthMonitor`. */
export interface HealthMonitorOptions {
  /** Time source for `lastChangeMs` and `checkedMs`. */
  readonly clock: Clock;
  /** Where a failing probe is logged with its stack. */
  readonly logger: PluginLogger;
  /** A probe that has not answered after this many milliseconds counts as not serving. */
  readonly timeoutMs: number;
  /** The probe; without one the plugin is always serving. */
  readonly probe?: HealthProbe;
}

/** Runs the health probe for HealthCheck, grpc.health.v1 and readiness alike. */
export interface HealthMonitor {
  /** Runs the probe (concurrent callers share one run) and returns the outcome. */
  check(): Promise<HealthSnapshot>;
  /** Replaces the probe; `undefined` means always serving. */
  setProbe(probe: HealthProbe | undefined): void;
}

const maxMessageLength = 1024;

/**
 * Creates the health monitor. A probe that throws or rejects is not serving with the message
 * "health probe failed" (the error is logged, never shown); one that does not answer within
 * `timeoutMs` is not serving with "health probe timed out". Concurrent checks share one probe
 * run, so a burst of Kubernetes probes and watchers never floods the plugin's dependencies.
 */
export function createHealthMonitor(options: HealthMonitorOptions): HealthMonitor {
  let probe = options.probe;
  let running: Promise<HealthSnapshot> | undefined;
  let last: HealthSnapshot | undefined;

  const runProbe = async (): Promise<{ status: HealthReport["status"]; message: string }> => {
    if (probe === undefined) return { status: "serving", message: "" };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), options.timeoutMs);
      timer.unref();
    });
    try {
      const report = await Promise.race([Promise.resolve().then(probe), timeout]);
      if (report === "timeout") {
        return { status: "not_serving", message: "health probe timed out" };
      }
      const status = report?.status === "serving" ? "serving" : "not_serving";
      return { status, message: String(report?.message ?? "").slice(0, maxMessageLength) };
    } catch (error) {
      options.logger.error({ err: error }, "health probe failed");
      return { status: "not_serving", message: "health probe failed" };
    } finally {
      clearTimeout(timer);
    }
  };

  const check = async (): Promise<HealthSnapshot> => {
    const outcome = await runProbe();
    const now = options.clock.now();
    const changed = last === undefined || last.status !== outcome.status;
    last = {
      ...outcome,
      lastChangeMs: changed || last === undefined ? now : last.lastChangeMs,
      checkedMs: now,
    };
    return last;
  };

  return {
    check() {
      running ??= check().finally(() => {
        running = undefined;
      });
      return running;
    },
    setProbe(next) {
      probe = next;
    },
  };
}
