import { Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createDurationHistogram } from "./duration-histogram.js";
import { defaultDurationBuckets } from "./rpc-metrics.js";

const name = "test_duration_seconds";
const help = "Durations.";

/** The same observations in prom-client's Histogram and in ours, on two registries. */
function pair(buckets: readonly number[] = defaultDurationBuckets) {
  const reference = new Registry();
  const histogram = new Histogram({
    name,
    help,
    labelNames: ["service", "method", "protocol"],
    buckets: [...buckets],
    registers: [reference],
  });
  const ours = new Registry();
  const duration = createDurationHistogram({ name, help, buckets, registry: ours });
  const observe = (labels: { service: string; method: string; protocol: string }, s: number) => {
    histogram.observe(labels, s);
    duration.series(labels).observe(s);
  };
  return { reference, ours, observe, duration };
}

const a = { service: "s.v1.A", method: "Get", protocol: "grpc" };
const b = { service: "s.v1.A", method: "Get", protocol: "connect" };

describe("createDurationHistogram", () => {
  it("exposes exactly what prom-client's Histogram exposes for the same observations", async () => {
    const { reference, ours, observe } = pair();
    for (const seconds of [0, 0.001, 0.0010001, 0.0025, 0.03, 0.7, 3, 29.9, 30, 31, 1e6]) {
      observe(a, seconds);
    }
    observe(b, 0.05);
    expect(await ours.metrics()).toBe(await reference.metrics());
    // The JSON form (what GetMetrics reads) too, but for prom-client's empty exemplar slots.
    const samples = async (registry: Registry) =>
      (await registry.getMetricsAsJSON()).map((family) => ({
        ...family,
        values: family.values.map((v) => ({
          labels: v.labels,
          value: v.value,
          metricName: (v as { metricName?: string }).metricName,
        })),
      }));
    expect(await samples(ours)).toEqual(await samples(reference));
  });

  it("shows a label set only once it has an observation, and empties on resetMetrics", async () => {
    const { reference, ours, observe, duration } = pair([0.1, 1]);
    const idle = duration.series({ service: "s.v1.A", method: "Idle", protocol: "grpc" });
    expect(await ours.metrics()).toBe(await reference.metrics());
    observe(a, 0.5);
    reference.resetMetrics();
    ours.resetMetrics();
    expect(await ours.metrics()).toBe(await reference.metrics());
    observe(a, 2);
    idle.observe(0.05);
    expect(await ours.metrics()).toContain(
      `${name}_count{service="s.v1.A",method="Idle",protocol="grpc"} 1`,
    );
    expect(await ours.metrics()).toContain(
      `${name}_count{service="s.v1.A",method="Get",protocol="grpc"} 1`,
    );
  });

  it("counts observations through every handle of the same labels in one series", async () => {
    const { ours, duration } = pair([1]);
    duration.series(a).observe(0.5);
    duration.series({ ...a }).observe(2);
    const text = await ours.metrics();
    expect(text).toContain(
      `${name}_bucket{le="1",service="s.v1.A",method="Get",protocol="grpc"} 1`,
    );
    expect(text).toContain(`${name}_count{service="s.v1.A",method="Get",protocol="grpc"} 2`);
    expect(text).toContain(`${name}_sum{service="s.v1.A",method="Get",protocol="grpc"} 2.5`);
  });

  it("refuses buckets that are not finite and strictly increasing, and values that are not finite", () => {
    const registry = new Registry();
    expect(() => createDurationHistogram({ name: "x", help, buckets: [1, 1], registry })).toThrow(
      RangeError,
    );
    expect(() =>
      createDurationHistogram({
        name: "y",
        help,
        buckets: [1, Number.POSITIVE_INFINITY],
        registry,
      }),
    ).toThrow(RangeError);
    const histogram = createDurationHistogram({ name: "z", help, buckets: [1], registry });
    expect(() => histogram.series(a).observe(Number.NaN)).toThrow(TypeError);
  });
});
