import type { Registry } from "prom-client";
import { Counter, Gauge, Histogram } from "prom-client";

/** Names of the metrics every plugin exposes about its RPCs. */
export const rpcMetricNames = {
  /** Counter of finished RPCs by service, method, protocol and code. */
  requests: "costplugin_rpc_requests_total",
  /** Histogram of RPC durations in seconds by service, method and protocol. */
  duration: "costplugin_rpc_duration_seconds",
  /** Gauge of RPCs being handled right now, by service and method. */
  inFlight: "costplugin_rpc_in_flight",
} as const;

/**
 * Default buckets of `costplugin_rpc_duration_seconds`, in seconds: 1 ms to 30 s, dense where
 * in-memory lookups (sub-10 ms) and vendor calls (0.1-2.5 s) land, topped at the 30 s deadline
 * hosts give GetActualCost.
 */
export const defaultDurationBuckets: readonly number[] = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
];

/** The RPC metrics, registered on one registry. */
export interface RpcMetrics {
  readonly requests: Counter<"service" | "method" | "protocol" | "code">;
  readonly duration: Histogram<"service" | "method" | "protocol">;
  readonly inFlight: Gauge<"service" | "method">;
}

/** Registers the RPC metrics on `registry` (never the global one). */
export function createRpcMetrics(registry: Registry, buckets: readonly number[]): RpcMetrics {
  return {
    requests: new Counter({
      name: rpcMetricNames.requests,
      help: "RPCs finished, by service, method, protocol and result code.",
      labelNames: ["service", "method", "protocol", "code"],
      registers: [registry],
    }),
    duration: new Histogram({
      name: rpcMetricNames.duration,
      help: "RPC duration in seconds, from the handler's start to its last response message.",
      labelNames: ["service", "method", "protocol"],
      buckets: [...buckets],
      registers: [registry],
    }),
    inFlight: new Gauge({
      name: rpcMetricNames.inFlight,
      help: "RPCs being handled right now, by service and method.",
      labelNames: ["service", "method"],
      registers: [registry],
    }),
  };
}
