import type { Registry } from "prom-client";
import { Counter, Gauge } from "prom-client";
import type { DurationHistogram } from "./duration-histogram.js";
import { createDurationHistogram } from "./duration-histogram.js";
import type { RpcProtocol } from "./rpc-protocol.js";

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
  readonly duration: DurationHistogram;
  readonly inFlight: Gauge<"service" | "method">;
  /** The recorder of one service, method and protocol (created once, then reused). */
  series(service: string, method: string, protocol: RpcProtocol): RpcSeries;
}

/** Records the calls of one service, method and protocol. */
export interface RpcSeries {
  /** A call started: it counts as in flight until `finished`. */
  started(): void;
  /** A call finished with the `code` label (`ok` or a snake_case code) after `seconds`. */
  finished(code: string, seconds: number): void;
}

interface InFlightEntry {
  readonly labels: { readonly service: string; readonly method: string };
  count: number;
}

interface CodeEntry {
  readonly labels: {
    readonly service: string;
    readonly method: string;
    readonly protocol: RpcProtocol;
    readonly code: string;
  };
  /** Calls finished since the counter last collected. */
  pending: number;
}

/**
 * Registers the RPC metrics on `registry` (never the global one).
 *
 * A call costs a few additions on plain objects: the request counter and the in-flight gauge
 * keep their numbers in per-series entries and hand them to prom-client when the registry is
 * read (`collect`, which GetMetrics and `/metrics` both trigger), and the duration histogram is
 * bound to its labels once per series (`createDurationHistogram`), instead of paying
 * prom-client's label validation and hashing on every call. The numbers read are the same.
 */
export function createRpcMetrics(registry: Registry, buckets: readonly number[]): RpcMetrics {
  const inFlightEntries = new Map<string, InFlightEntry>();
  const codeEntries: CodeEntry[] = [];
  const seriesByKey = new Map<string, RpcSeries>();

  const requests = new Counter({
    name: rpcMetricNames.requests,
    help: "RPCs finished, by service, method, protocol and result code.",
    labelNames: ["service", "method", "protocol", "code"],
    registers: [registry],
    collect() {
      for (const entry of codeEntries) {
        if (entry.pending === 0) continue;
        this.inc(entry.labels, entry.pending);
        entry.pending = 0;
      }
    },
  });
  const duration = createDurationHistogram({
    name: rpcMetricNames.duration,
    help: "RPC duration in seconds, from the handler's start to its last response message.",
    buckets,
    registry,
  });
  const inFlight = new Gauge({
    name: rpcMetricNames.inFlight,
    help: "RPCs being handled right now, by service and method.",
    labelNames: ["service", "method"],
    registers: [registry],
    collect() {
      for (const entry of inFlightEntries.values()) this.set(entry.labels, entry.count);
    },
  });

  const createSeries = (service: string, method: string, protocol: RpcProtocol): RpcSeries => {
    const inFlightKey = `${service}/${method}`;
    let running = inFlightEntries.get(inFlightKey);
    if (running === undefined) {
      running = { labels: { service, method }, count: 0 };
      inFlightEntries.set(inFlightKey, running);
    }
    const active = running;
    const durations = duration.series({ service, method, protocol });
    const codes = new Map<string, CodeEntry>();
    return {
      started() {
        active.count++;
      },
      finished(code, seconds) {
        active.count--;
        let entry = codes.get(code);
        if (entry === undefined) {
          entry = { labels: { service, method, protocol, code }, pending: 0 };
          codes.set(code, entry);
          codeEntries.push(entry);
        }
        entry.pending++;
        durations.observe(seconds);
      },
    };
  };

  return {
    requests,
    duration,
    inFlight,
    series(service, method, protocol) {
      const key = `${service}/${method}/${protocol}`;
      let found = seriesByKey.get(key);
      if (found === undefined) {
        found = createSeries(service, method, protocol);
        seriesByKey.set(key, found);
      }
      return found;
    },
  };
}
