import { describe, expect, it } from "vitest";
import { LatencyBins } from "./latency-bins.js";

describe("LatencyBins", () => {
  it("answers undefined for an empty distribution", () => {
    expect(new LatencyBins().quantile(0.95)).toBeUndefined();
  });

  it("returns exact values when the samples of a bin are equal (nearest rank)", () => {
    const bins = new LatencyBins();
    for (let i = 0; i < 95; i++) bins.add(0.01);
    for (let i = 0; i < 5; i++) bins.add(2);
    expect(bins.count).toBe(100);
    expect(bins.quantile(0.95)).toBe(0.01);
    expect(bins.quantile(0.96)).toBe(2);
    expect(bins.quantile(0.99)).toBe(2);
  });

  it("stays within a bin's width (about 9 %) of the true percentile", () => {
    const bins = new LatencyBins();
    for (let i = 1; i <= 1000; i++) bins.add(i / 1000);
    const p95 = bins.quantile(0.95) ?? 0;
    expect(Math.abs(p95 - 0.95) / 0.95).toBeLessThan(0.09);
  });

  it("merges distributions", () => {
    const a = new LatencyBins();
    const b = new LatencyBins();
    a.add(0.1);
    b.add(0.1);
    b.add(5);
    a.merge(b);
    expect(a.count).toBe(3);
    expect(a.quantile(0.5)).toBeCloseTo(0.1, 12);
    expect(a.quantile(1)).toBe(5);
  });

  it("files zero, negative and non-finite durations in the smallest bin as 0", () => {
    const bins = new LatencyBins();
    bins.add(0);
    bins.add(-1);
    bins.add(Number.NaN);
    expect(bins.quantile(1)).toBe(0);
  });
});
