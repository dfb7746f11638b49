/**
 * Bins per doubling of latency: a bin spans a factor of 2^(1/8), about 9 %. A percentile is
 * reported as the mean of the samples in the bin that holds it, so it is exact when those
 * samples are equal and never off by more than the bin's width.
 */
export const latencyBinsPerDoubling = 8;

// Durations below 1 µs share one bin.
const minSeconds = 1e-6;

/**
 * A compact latency distribution: sparse bins kept as parallel number arrays (about 24 bytes
 * per bin in use), mergeable and queryable by nearest-rank percentile.
 */
export class LatencyBins {
  private readonly bins: number[] = [];
  private readonly counts: number[] = [];
  private readonly sums: number[] = [];
  private samples = 0;

  /** Number of samples recorded. */
  get count(): number {
    return this.samples;
  }

  /** Records one duration in seconds. */
  add(seconds: number): void {
    const value = Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
    this.addBin(binOf(value), 1, value);
  }

  /** Adds every sample of `other` to this distribution. */
  merge(other: LatencyBins): void {
    for (let i = 0; i < other.bins.length; i++) {
      this.addBin(other.bins[i] ?? 0, other.counts[i] ?? 0, other.sums[i] ?? 0);
    }
  }

  /**
   * The nearest-rank percentile `q` (0 < q <= 1) in seconds: the mean of the bin holding the
   * ceil(q x count)-th smallest sample. Undefined when empty.
   */
  quantile(q: number): number | undefined {
    if (this.samples === 0) return undefined;
    // The epsilon keeps 0.95 x 100 at rank 95 despite binary floating point.
    const rank = Math.max(1, Math.ceil(q * this.samples - 1e-9));
    const order = this.bins
      .map((_, i) => i)
      .sort((a, b) => (this.bins[a] ?? 0) - (this.bins[b] ?? 0));
    let seen = 0;
    for (const i of order) {
      const count = this.counts[i] ?? 0;
      seen += count;
      // Rounded to the nanosecond: summing equal samples must not read back as 0.010000000000000007.
      if (seen >= rank) return Math.round(((this.sums[i] ?? 0) / count) * 1e9) / 1e9;
    }
    return undefined;
  }

  private addBin(bin: number, count: number, sum: number): void {
    const at = this.bins.indexOf(bin);
    if (at === -1) {
      this.bins.push(bin);
      this.counts.push(count);
      this.sums.push(sum);
    } else {
      this.counts[at] = (this.counts[at] ?? 0) + count;
      this.sums[at] = (this.sums[at] ?? 0) + sum;
    }
    this.samples += count;
  }
}

function binOf(seconds: number): number {
  return Math.floor(Math.log2(Math.max(seconds, minSeconds)) * latencyBinsPerDoubling);
}
