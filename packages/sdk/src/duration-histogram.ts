import type { Metric, Registry } from "prom-client";

/** Options of `createDurationHistogram`. */
export interface DurationHistogramOptions {
  /** The family name, e.g. `costplugin_rpc_duration_seconds`. */
  readonly name: string;
  /** The HELP text. */
  readonly help: string;
  /** Upper bounds of the buckets in ascending order (`+Inf` is implied). */
  readonly buckets: readonly number[];
  /** The registry to register on (never the global one). */
  readonly registry: Registry;
}

/** The observations of one label set. */
export interface DurationSeries {
  /** Records one duration in seconds. */
  observe(seconds: number): void;
}

/** A histogram family whose label sets are bound once and observed without per-call work. */
export interface DurationHistogram {
  /** The series of `labels`, created on first use; keep it and observe through it. */
  series(labels: Readonly<Record<string, string>>): DurationSeries;
}

/** One sample as prom-client's registry reads it from a family's `get()`. */
interface SampleValue {
  readonly labels: Readonly<Record<string, string | number>>;
  readonly value: number;
  readonly metricName: string;
}

interface SeriesState {
  readonly labels: Readonly<Record<string, string>>;
  /** Observations per bucket (not cumulative); the last slot is above every bound. */
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

/**
 * A Prometheus histogram registered on a prom-client registry, read through the registry exactly
 * like prom-client's own `Histogram` (the same `_bucket` samples with an `le` label, cumulative
 * and ending in `+Inf`, then `_sum` and `_count`; a label set appears once it has an
 * observation; `registry.resetMetrics()` empties it), so GetMetrics and `/metrics` see no
 * difference. What differs is the cost of an observation: a series is bound to its labels once,
 * so observing is a bucket search over a few numbers and three additions, where prom-client
 * validates and hashes the labels and keys its buckets by their decimal text on every call.
 */
export function createDurationHistogram(options: DurationHistogramOptions): DurationHistogram {
  const { name, help } = options;
  const bounds = [...options.buckets];
  for (let i = 0; i < bounds.length; i++) {
    const bound = bounds[i] as number;
    if (!Number.isFinite(bound) || (i > 0 && bound <= (bounds[i - 1] as number))) {
      throw new RangeError(`${name}: buckets must be finite and strictly increasing`);
    }
  }
  const all = new Map<string, SeriesState>();

  const values = (): SampleValue[] => {
    const out: SampleValue[] = [];
    for (const state of all.values()) {
      if (state.count === 0) continue;
      let cumulative = 0;
      for (let i = 0; i < bounds.length; i++) {
        cumulative += state.counts[i] as number;
        out.push({
          labels: { le: bounds[i] as number, ...state.labels },
          value: cumulative,
          metricName: `${name}_bucket`,
        });
      }
      out.push(
        {
          labels: { le: "+Inf", ...state.labels },
          value: state.count,
          metricName: `${name}_bucket`,
        },
        { labels: { ...state.labels }, value: state.sum, metricName: `${name}_sum` },
        { labels: { ...state.labels }, value: state.count, metricName: `${name}_count` },
      );
    }
    return out;
  };

  const family = {
    name,
    help,
    type: "histogram",
    aggregator: "sum",
    labelNames: [] as string[],
    get: async () => ({ name, help, type: "histogram", aggregator: "sum", values: values() }),
    reset: () => {
      for (const state of all.values()) {
        state.counts.fill(0);
        state.sum = 0;
        state.count = 0;
      }
    },
  };
  // prom-client's registry reads any family through `get()` and resets it through `reset()`.
  options.registry.registerMetric(family as unknown as Metric);

  return {
    series(labels) {
      const key = JSON.stringify(labels);
      let state = all.get(key);
      if (state === undefined) {
        state = {
          labels: { ...labels },
          counts: new Float64Array(bounds.length + 1),
          sum: 0,
          count: 0,
        };
        all.set(key, state);
      }
      const s = state;
      return {
        observe(seconds) {
          if (!Number.isFinite(seconds)) {
            throw new TypeError(`${name}: cannot observe ${String(seconds)}`);
          }
          let i = 0;
          while (i < bounds.length && seconds > (bounds[i] as number)) i++;
          s.counts[i] = (s.counts[i] as number) + 1;
          s.sum += seconds;
          s.count += 1;
        },
      };
    },
  };
}
