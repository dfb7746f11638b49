import { timestampDate, timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import type { Metric } from "@costplugin/proto";
import { ErrorCode, HealthCheckResponse_Status, MetricType, SLIStatus } from "@costplugin/proto";
import { Gauge, Histogram, Summary } from "prom-client";
import { describe, expect, it } from "vitest";
import { createFakeClock } from "./fake-clock.js";
import { createObservability } from "./observability.js";
import type { CostSourcePlugin } from "./plugin.js";
import { PluginError } from "./plugin-error.js";
import { rpcMetricNames } from "./rpc-metrics.js";
import {
  createCapturingLogger,
  createRecordingPlugin,
  onlyErrorDetail,
  rejectionOf,
} from "./test-helpers.js";
import { createTestClient } from "./testing.js";

const ec2 = { provider: "aws", resourceType: "ec2" };
const costSourceService = "costplugin.v1.CostSourceService";

/**
 * A plugin whose GetProjectedCost takes `latencyMs` of fake time and then succeeds or throws
 * `failWith`: known calls, known durations, no sleeping.
 */
function scriptedSetup(overrides: Partial<CostSourcePlugin> = {}) {
  const clock = createFakeClock();
  const script: { latencyMs: number; failWith?: Error } = { latencyMs: 0 };
  const { plugin } = createRecordingPlugin({
    getProjectedCost: () => {
      clock.advance(script.latencyMs);
      if (script.failWith) throw script.failWith;
      return { currency: "USD" };
    },
    ...overrides,
  });
  const observability = createObservability({ defaultMetrics: false, clock });
  const client = createTestClient(plugin, {
    observability,
    logger: createCapturingLogger().logger,
  });
  const call = async (latencyMs: number, failWith?: Error, times = 1) => {
    for (let i = 0; i < times; i++) {
      script.latencyMs = latencyMs;
      script.failWith = failWith;
      try {
        await client.costSource.getProjectedCost({ resource: ec2 });
      } catch {
        // Outcomes are asserted through the metrics.
      }
    }
  };
  return { clock, client, observability, call };
}

function metricNamed(metrics: readonly Metric[], name: string): Metric {
  const metric = metrics.find((m) => m.name === name);
  if (metric === undefined) throw new Error(`metric ${name} is missing`);
  return metric;
}

function sampleValue(metric: Metric, labels: Record<string, string>): number | undefined {
  const sample = metric.samples.find((s) =>
    Object.entries(labels).every(([key, value]) => s.labels[key] === value),
  );
  return sample?.value;
}

describe("createObservabilityService", () => {
  describe("getMetrics", () => {
    it("reports exact request counts per code after a known mix of calls", async () => {
      const { client, call } = scriptedSetup();
      await call(5, undefined, 7);
      await call(5, new PluginError(ErrorCode.RESOURCE_NOT_FOUND, "no sku"), 3);
      await call(5, new PluginError(ErrorCode.SERVICE_UNAVAILABLE, "vendor down"), 2);
      await call(5, new PluginError(ErrorCode.RATE_LIMITED, "slow down"), 1);
      await call(5, new Error("bug"), 4);
      const { metrics } = await client.observability.getMetrics({
        metricNames: [rpcMetricNames.requests],
      });
      expect(metrics).toHaveLength(1);
      const requests = metricNamed(metrics, rpcMetricNames.requests);
      expect(requests.type).toBe(MetricType.COUNTER);
      const count = (code: string) =>
        sampleValue(requests, { method: "GetProjectedCost", protocol: "connect", code });
      expect(count("ok")).toBe(7);
      expect(count("not_found")).toBe(3);
      expect(count("unavailable")).toBe(2);
      expect(count("resource_exhausted")).toBe(1);
      expect(count("internal")).toBe(4);
      expect(requests.samples.every((s) => s.labels.service === costSourceService)).toBe(true);
    });

    it("places durations in the right histogram buckets, with sum and count", async () => {
      const { client, call } = scriptedSetup();
      await call(0.5, undefined, 2); // 0.0005 s: the 0.001 bucket
      await call(30, undefined, 3); // 0.03 s: the 0.05 bucket
      await call(1500, undefined, 1); // 1.5 s: the 2.5 bucket
      await call(45_000, undefined, 1); // 45 s: only +Inf
      const { metrics } = await client.observability.getMetrics({
        metricNames: [rpcMetricNames.duration],
      });
      const duration = metricNamed(metrics, rpcMetricNames.duration);
      expect(duration.type).toBe(MetricType.HISTOGRAM);
      const bucket = (le: string) =>
        sampleValue(duration, {
          __name__: `${rpcMetricNames.duration}_bucket`,
          method: "GetProjectedCost",
          le,
        });
      expect(bucket("0.001")).toBe(2);
      expect(bucket("0.025")).toBe(2);
      expect(bucket("0.05")).toBe(5);
      expect(bucket("1")).toBe(5);
      expect(bucket("2.5")).toBe(6);
      expect(bucket("30")).toBe(6);
      expect(bucket("+Inf")).toBe(7);
      const sum = sampleValue(duration, {
        __name__: `${rpcMetricNames.duration}_sum`,
        method: "GetProjectedCost",
      });
      expect(sum).toBeCloseTo(0.001 + 0.09 + 1.5 + 45, 9);
      expect(
        sampleValue(duration, {
          __name__: `${rpcMetricNames.duration}_count`,
          method: "GetProjectedCost",
        }),
      ).toBe(7);
    });

    it("shows an RPC as in flight while it runs and not after", async () => {
      let seen: number | undefined;
      const { plugin } = createRecordingPlugin();
      const observability = createObservability({ defaultMetrics: false });
      const client = createTestClient(
        {
          ...plugin,
          async getProjectedCost() {
            const gauge = await observability.registry
              .getSingleMetric(rpcMetricNames.inFlight)
              ?.get();
            seen = gauge?.values.find((v) => v.labels.method === "GetProjectedCost")?.value;
            return {};
          },
        },
        { observability },
      );
      await client.costSource.getProjectedCost({ resource: ec2 });
      expect(seen).toBe(1);
      const { metrics } = await client.observability.getMetrics({
        metricNames: [rpcMetricNames.inFlight],
      });
      const inFlight = metricNamed(metrics, rpcMetricNames.inFlight);
      expect(sampleValue(inFlight, { method: "GetProjectedCost" })).toBe(0);
      expect(sampleValue(inFlight, { method: "GetMetrics" })).toBe(1);
    });

    it("returns every metric for an empty filter and leaves unknown names out", async () => {
      const { client, observability } = scriptedSetup();
      new Gauge({
        name: "plugin_catalogue_entries",
        help: "x",
        registers: [observability.registry],
      }).set(42);
      const all = await client.observability.getMetrics({});
      expect(all.metrics.map((m) => m.name)).toEqual([
        rpcMetricNames.requests,
        rpcMetricNames.duration,
        rpcMetricNames.inFlight,
        "plugin_catalogue_entries",
      ]);
      const some = await client.observability.getMetrics({
        metricNames: [
          "plugin_catalogue_entries",
          "no_such_metric",
          `${rpcMetricNames.duration}_bucket`,
        ],
      });
      expect(some.metrics.map((m) => m.name)).toEqual(["plugin_catalogue_entries"]);
      expect(some.metrics[0]?.samples[0]?.value).toBe(42);
    });

    it("carries summaries with quantile labels", async () => {
      const { client, observability } = scriptedSetup();
      const summary = new Summary({
        name: "plugin_vendor_seconds",
        help: "x",
        percentiles: [0.5],
        registers: [observability.registry],
      });
      summary.observe(2);
      const { metrics } = await client.observability.getMetrics({
        metricNames: ["plugin_vendor_seconds"],
      });
      const metric = metricNamed(metrics, "plugin_vendor_seconds");
      expect(metric.type).toBe(MetricType.SUMMARY);
      expect(sampleValue(metric, { quantile: "0.5" })).toBe(2);
      expect(sampleValue(metric, { __name__: "plugin_vendor_seconds_count" })).toBe(1);
    });

    it("defaults the format to json and echoes prometheus, case-insensitively", async () => {
      const { client, clock } = scriptedSetup();
      const json = await client.observability.getMetrics({});
      expect(json.format).toBe("json");
      expect(json.timestamp && timestampDate(json.timestamp).getTime()).toBe(clock.now());
      expect((await client.observability.getMetrics({ format: "Prometheus" })).format).toBe(
        "prometheus",
      );
      expect((await client.observability.getMetrics({ format: "json" })).format).toBe("json");
    });

    it("rejects an unknown format as invalid_argument with an ErrorDetail", async () => {
      const { client } = scriptedSetup();
      const error = await rejectionOf(client.observability.getMetrics({ format: "xml" }));
      expect(error.code).toBe(Code.InvalidArgument);
      expect(error.rawMessage).toBe(
        'format "xml" is not supported; use "json" (the default) or "prometheus"',
      );
      expect(onlyErrorDetail(error).details).toEqual({ field: "format" });
    });

    it("rejects oversized filters and keeps answering", async () => {
      const { client } = scriptedSetup();
      const many = await rejectionOf(
        client.observability.getMetrics({
          metricNames: Array.from({ length: 257 }, (_, i) => `m${i}`),
        }),
      );
      expect(many.rawMessage).toBe("metric_names has 257 entries; at most 256 are allowed");
      const long = await rejectionOf(
        client.observability.getMetrics({ metricNames: ["m".repeat(300)] }),
      );
      expect(long.code).toBe(Code.InvalidArgument);
      const huge = await rejectionOf(
        client.observability.getMetrics({ format: "f".repeat(10_000) }),
      );
      expect(huge.rawMessage.length).toBeLessThan(200);
      expect((await client.observability.getMetrics({})).metrics.length).toBeGreaterThan(0);
    });

    it("answers internal, logged, when a plugin metric fails to collect", async () => {
      const capture = createCapturingLogger();
      const observability = createObservability({ defaultMetrics: false });
      new Gauge({
        name: "plugin_broken",
        help: "x",
        registers: [observability.registry],
        collect() {
          throw new Error("collector exploded with token=abc");
        },
      });
      const client = createTestClient(createRecordingPlugin().plugin, {
        observability,
        logger: capture.logger,
      });
      const error = await rejectionOf(client.observability.getMetrics({}));
      expect(error.code).toBe(Code.Internal);
      expect(error.rawMessage).toBe("internal error");
      expect(capture.entries).toHaveLength(1);
    });
  });

  describe("getServiceLevelIndicators", () => {
    const range = (startMs: number, endMs: number) => ({
      timeRange: { start: timestampFromMs(startMs), end: timestampFromMs(endMs) },
    });

    it("computes availability, error rate and latency percentiles over the requested range", async () => {
      const { client, clock, call } = scriptedSetup();
      const start = clock.now();
      await call(10, undefined, 95);
      await call(3000, undefined, 3);
      await call(10, new PluginError(ErrorCode.RESOURCE_NOT_FOUND, "caller error"), 1);
      await call(10, new PluginError(ErrorCode.SERVICE_UNAVAILABLE, "vendor down"), 1);
      const { slis, measurementTime } = await client.observability.getServiceLevelIndicators(
        range(start, clock.now() + 1),
      );
      expect(measurementTime && timestampDate(measurementTime).getTime()).toBe(clock.now());
      const byName = Object.fromEntries(slis.map((sli) => [sli.name, sli]));
      expect(slis.map((sli) => sli.name)).toEqual([
        "availability",
        "error_rate",
        "latency_p95",
        "latency_p99",
      ]);
      expect(byName.availability).toMatchObject({
        value: 99,
        unit: "percent",
        targetValue: 99.9,
        status: SLIStatus.SLI_STATUS_CRITICAL,
      });
      expect(byName.error_rate).toMatchObject({
        value: 1,
        targetValue: 0.1,
        status: SLIStatus.SLI_STATUS_CRITICAL,
      });
      // 97 of 100 calls took 10 ms: rank 95 is 10 ms, rank 99 is 3 s.
      expect(byName.latency_p95?.value).toBeCloseTo(0.01, 12);
      expect(byName.latency_p95).toMatchObject({
        unit: "seconds",
        targetValue: 1,
        status: SLIStatus.SLI_STATUS_MEETING_TARGET,
      });
      expect(byName.latency_p99?.value).toBeCloseTo(3, 12);
      expect(byName.latency_p99?.status).toBe(SLIStatus.SLI_STATUS_WARNING);
    });

    it("meets every target when nothing failed and calls were fast", async () => {
      const { client, clock, call } = scriptedSetup();
      const start = clock.now();
      await call(20, undefined, 50);
      await call(20, new PluginError(ErrorCode.INVALID_RESOURCE, "bad input"), 50);
      const { slis } = await client.observability.getServiceLevelIndicators(
        range(start, clock.now() + 1),
      );
      expect(slis.map((sli) => [sli.name, sli.status])).toEqual([
        ["availability", SLIStatus.SLI_STATUS_MEETING_TARGET],
        ["error_rate", SLIStatus.SLI_STATUS_MEETING_TARGET],
        ["latency_p95", SLIStatus.SLI_STATUS_MEETING_TARGET],
        ["latency_p99", SLIStatus.SLI_STATUS_MEETING_TARGET],
      ]);
      expect(slis[0]?.value).toBe(100);
      expect(slis[1]?.value).toBe(0);
      expect(slis[2]?.value).toBeCloseTo(0.02, 12);
      expect(slis[3]?.value).toBeCloseTo(0.02, 12);
    });

    it("answers only from the buckets the range overlaps", async () => {
      const { client, clock, call } = scriptedSetup();
      const first = clock.now();
      await call(0, new Error("early fault"), 4);
      clock.advance(60_000);
      const second = clock.now();
      await call(0, undefined, 10);
      const early = await client.observability.getServiceLevelIndicators({
        ...range(first, first + 10_000),
        sliNames: ["availability"],
      });
      expect(early.slis.map((sli) => sli.value)).toEqual([0]);
      const late = await client.observability.getServiceLevelIndicators({
        ...range(second, second + 10_000),
        sliNames: ["availability"],
      });
      expect(late.slis.map((sli) => sli.value)).toEqual([100]);
      const both = await client.observability.getServiceLevelIndicators({
        ...range(first, second + 10_000),
        sliNames: ["availability"],
      });
      expect(both.slis[0]?.value).toBeCloseTo((10 / 14) * 100, 9);
    });

    it("reports UNSPECIFIED status when no request fell in the range", async () => {
      const { client, clock } = scriptedSetup();
      const { slis } = await client.observability.getServiceLevelIndicators(
        range(clock.now() - 3_600_000, clock.now()),
      );
      expect(slis.map((sli) => [sli.value, sli.status])).toEqual([
        [100, SLIStatus.SLI_STATUS_UNSPECIFIED],
        [0, SLIStatus.SLI_STATUS_UNSPECIFIED],
        [0, SLIStatus.SLI_STATUS_UNSPECIFIED],
        [0, SLIStatus.SLI_STATUS_UNSPECIFIED],
      ]);
    });

    it("counts only CostSourceService calls", async () => {
      const { client, clock } = scriptedSetup();
      const start = clock.now();
      await client.observability.getMetrics({});
      await client.observability.healthCheck({});
      const { slis } = await client.observability.getServiceLevelIndicators(
        range(start, clock.now() + 1),
      );
      expect(slis[0]?.status).toBe(SLIStatus.SLI_STATUS_UNSPECIFIED);
    });

    it("uses configured targets", async () => {
      const clock = createFakeClock();
      const observability = createObservability({
        defaultMetrics: false,
        clock,
        sli: { targets: { latencyP95: 0.005 } },
      });
      const { plugin } = createRecordingPlugin({
        getProjectedCost: () => {
          clock.advance(8);
          return {};
        },
      });
      const client = createTestClient(plugin, { observability });
      const start = clock.now();
      await client.costSource.getProjectedCost({ resource: ec2 });
      const { slis } = await client.observability.getServiceLevelIndicators({
        ...range(start, clock.now() + 1),
        sliNames: ["latency_p95"],
      });
      expect(slis[0]).toMatchObject({ targetValue: 0.005, status: SLIStatus.SLI_STATUS_WARNING });
    });

    it("filters by sli_names and answers in the standard order", async () => {
      const { client, clock } = scriptedSetup();
      const { slis } = await client.observability.getServiceLevelIndicators({
        ...range(clock.now() - 1000, clock.now()),
        sliNames: ["latency_p99", "availability", "latency_p99"],
      });
      expect(slis.map((sli) => sli.name)).toEqual(["availability", "latency_p99"]);
    });

    it("rejects unknown sli_names, naming them and the known ones", async () => {
      const { client, clock } = scriptedSetup();
      const error = await rejectionOf(
        client.observability.getServiceLevelIndicators({
          ...range(clock.now() - 1000, clock.now()),
          sliNames: ["availability", "throughput", "apdex"],
        }),
      );
      expect(error.code).toBe(Code.InvalidArgument);
      expect(error.rawMessage).toBe(
        'unknown SLI names: "throughput", "apdex"; known: availability, error_rate, latency_p95, latency_p99',
      );
      expect(onlyErrorDetail(error).details).toEqual({ field: "sli_names" });
    });

    it("rejects oversized sli_names without echoing them", async () => {
      const { client, clock } = scriptedSetup();
      const long = await rejectionOf(
        client.observability.getServiceLevelIndicators({
          ...range(clock.now() - 1000, clock.now()),
          sliNames: ["x".repeat(5000)],
        }),
      );
      expect(long.rawMessage).not.toContain("xxxx");
      const many = await rejectionOf(
        client.observability.getServiceLevelIndicators({
          ...range(clock.now() - 1000, clock.now()),
          sliNames: Array.from({ length: 33 }, () => "availability"),
        }),
      );
      expect(many.rawMessage).toBe("sli_names has 33 entries; at most 32 are allowed");
    });

    it.each([
      ["a missing time_range", {}, "time_range is required"],
      [
        "a missing start",
        { timeRange: { end: timestampFromMs(1000) } },
        "time_range.start is required",
      ],
      [
        "a missing end",
        { timeRange: { start: timestampFromMs(1000) } },
        "time_range.end is required",
      ],
      [
        "an empty range",
        { timeRange: { start: timestampFromMs(1000), end: timestampFromMs(1000) } },
        "time_range.end equals time_range.start (1970-01-01T00:00:01.000Z); the range is half-open, so it must end after it starts",
      ],
      [
        "an inverted range",
        { timeRange: { start: timestampFromMs(2000), end: timestampFromMs(1000) } },
        "time_range.end (1970-01-01T00:00:01.000Z) is before time_range.start (1970-01-01T00:00:02.000Z)",
      ],
    ])("rejects %s as INVALID_TIME_RANGE", async (_name, request, message) => {
      const { client } = scriptedSetup();
      const error = await rejectionOf(client.observability.getServiceLevelIndicators(request));
      expect(error.code).toBe(Code.InvalidArgument);
      expect(error.rawMessage).toBe(message);
      expect(onlyErrorDetail(error).code).toBe(ErrorCode.INVALID_TIME_RANGE);
    });
  });

  describe("healthCheck", () => {
    it("answers SERVING by default with the time the status was first seen", async () => {
      const { client, clock } = scriptedSetup();
      const first = clock.now();
      const response = await client.observability.healthCheck({});
      expect(response.status).toBe(HealthCheckResponse_Status.SERVING);
      expect(response.lastCheckTime && timestampDate(response.lastCheckTime).getTime()).toBe(first);
    });

    it("keeps last_check_time while the status holds and moves it when the status changes", async () => {
      let healthy = true;
      const { client, clock } = scriptedSetup({
        health: () =>
          healthy
            ? { status: "serving" }
            : { status: "not_serving", message: "vendor unreachable" },
      });
      const t0 = clock.now();
      await client.observability.healthCheck({});
      clock.advance(30_000);
      const same = await client.observability.healthCheck({});
      expect(same.lastCheckTime && timestampDate(same.lastCheckTime).getTime()).toBe(t0);
      healthy = false;
      clock.advance(30_000);
      const changed = await client.observability.healthCheck({});
      expect(changed.status).toBe(HealthCheckResponse_Status.NOT_SERVING);
      expect(changed.message).toBe("vendor unreachable");
      expect(changed.lastCheckTime && timestampDate(changed.lastCheckTime).getTime()).toBe(
        t0 + 60_000,
      );
    });

    it("answers NOT_SERVING with a safe message when the probe throws", async () => {
      const capture = createCapturingLogger();
      const observability = createObservability({ defaultMetrics: false, logger: capture.logger });
      const { plugin } = createRecordingPlugin({
        health: () => {
          throw new Error("db password=hunter2 rejected");
        },
      });
      const client = createTestClient(plugin, { observability });
      const response = await client.observability.healthCheck({});
      expect(response.status).toBe(HealthCheckResponse_Status.NOT_SERVING);
      expect(response.message).toBe("health probe failed");
      expect(capture.entries).toHaveLength(1);
    });

    it("accepts the costplugin.v1 service names and answers SERVICE_UNKNOWN for others", async () => {
      const { client } = scriptedSetup();
      for (const serviceName of [
        "costplugin.v1.CostSourceService",
        "costplugin.v1.ObservabilityService",
      ]) {
        expect((await client.observability.healthCheck({ serviceName })).status).toBe(
          HealthCheckResponse_Status.SERVING,
        );
      }
      const unknown = await client.observability.healthCheck({ serviceName: "acme.Billing" });
      expect(unknown.status).toBe(HealthCheckResponse_Status.SERVICE_UNKNOWN);
      expect(unknown.message).toBe('unknown service "acme.Billing"');
      const huge = await client.observability.healthCheck({ serviceName: "s".repeat(100_000) });
      expect(huge.message.length).toBeLessThan(300);
    });
  });

  it("registers histograms of plugins with their own buckets", async () => {
    const { client, observability } = scriptedSetup();
    new Histogram({
      name: "plugin_vendor_call_seconds",
      help: "x",
      buckets: [0.1, 1],
      registers: [observability.registry],
    }).observe(0.5);
    const { metrics } = await client.observability.getMetrics({
      metricNames: ["plugin_vendor_call_seconds"],
    });
    const metric = metricNamed(metrics, "plugin_vendor_call_seconds");
    expect(
      metric.samples
        .filter((s) => s.labels.__name__ === "plugin_vendor_call_seconds_bucket")
        .map((s) => [s.labels.le, s.value]),
    ).toEqual([
      ["0.1", 0],
      ["1", 1],
      ["+Inf", 1],
    ]);
  });
});
