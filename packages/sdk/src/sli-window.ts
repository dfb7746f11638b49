import { LatencyBins } from "./latency-bins.js";
import type { MillisecondRange } from "./time-range.js";

/** Options of `createSliWindow`. */
export interface SliWindowOptions {
  /** Width of one bucket in seconds; the time resolution of every SLI range. */
  readonly bucketSeconds: number;
  /** How long buckets are kept, in seconds; older ones are dropped as new ones open. */
  readonly retentionSeconds: number;
}

/** What the window holds for a time range. */
export interface WindowSummary {
  /** Requests counted (every outcome except canceled). */
  readonly total: number;
  /** Requests that ended in a server fault. */
  readonly faults: number;
  /** Durations of the counted requests. */
  readonly latency: LatencyBins;
}

/** Outcomes of RPCs in fixed-width time buckets, kept for a bounded retention. */
export interface SliWindow {
  /** Records one RPC that finished at `atMs` (epoch ms). */
  record(atMs: number, fault: boolean, durationSeconds: number): void;
  /** Sums every bucket that overlaps the half-open range `[startMs, endMs)`. */
  summarize(range: MillisecondRange): WindowSummary;
  /** Number of buckets held now (never above retention / width + 1). */
  readonly size: number;
}

interface Bucket {
  total: number;
  faults: number;
  readonly latency: LatencyBins;
}

/**
 * Creates the in-memory sliding window behind GetServiceLevelIndicators. Memory is bounded by
 * `retentionSeconds / bucketSeconds + 1` buckets, each a few counters plus the latency bins in
 * use (see `LatencyBins`); buckets are created only when a request finishes in them.
 */
export function createSliWindow(options: SliWindowOptions): SliWindow {
  const widthMs = options.bucketSeconds * 1000;
  const retentionMs = options.retentionSeconds * 1000;
  const buckets = new Map<number, Bucket>();
  let newest = Number.NEGATIVE_INFINITY;

  const prune = () => {
    const oldestKept = newest - retentionMs;
    for (const start of buckets.keys()) {
      if (start + widthMs <= oldestKept) buckets.delete(start);
    }
  };

  return {
    record(atMs, fault, durationSeconds) {
      const start = Math.floor(atMs / widthMs) * widthMs;
      let bucket = buckets.get(start);
      if (bucket === undefined) {
        if (start + widthMs <= newest - retentionMs) return;
        bucket = { total: 0, faults: 0, latency: new LatencyBins() };
        buckets.set(start, bucket);
        newest = Math.max(newest, start);
        prune();
      }
      bucket.total += 1;
      if (fault) bucket.faults += 1;
      bucket.latency.add(durationSeconds);
    },
    summarize(range) {
      let total = 0;
      let faults = 0;
      const latency = new LatencyBins();
      for (const [start, bucket] of buckets) {
        if (start < range.endMs && start + widthMs > range.startMs) {
          total += bucket.total;
          faults += bucket.faults;
          latency.merge(bucket.latency);
        }
      }
      return { total, faults, latency };
    },
    get size() {
      return buckets.size;
    },
  };
}
