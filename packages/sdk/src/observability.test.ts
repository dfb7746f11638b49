import { ErrorCode } from "@costplugin/proto";
import { Counter, register as globalRegistry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createFakeClock } from "./fake-clock.js";
import { createObservability } from "./observability.js";
import { PluginError } from "./plugin-error.js";
import { rpcMetricNames } from "./rpc-metrics.js";
import { createRecordingPlugin, rejectionOf } from "./test-helpers.js";
import { createTestClient } from "./testing.js";

const ec2 = { provider: "aws", resourceType: "ec2" };

describe("createObservability", () => {
  it("gives every instance its own registry, never the global one", () => {
    const a = createObservability({ defaultMetrics: false });
    const b = createObservability({ defaultMetrics: false });
    expect(a.registry).not.toBe(b.registry);
    expect(a.registry).not.toBe(globalRegistry);
    expect(globalRegistry.getSingleMetric(rpcMetricNames.requests)).toBeUndefined();
  });

  it("registers the RPC metrics and, by default, process memory and event-loop lag", async () => {
    const { registry } = createObservability();
    const names = (await registry.getMetricsAsJSON()).map((metric) => metric.name);
    expect(names).toEqual(
      expect.arrayContaining([
        rpcMetricNames.requests,
        rpcMetricNames.duration,
        rpcMetricNames.inFlight,
        "process_resident_memory_bytes",
        "nodejs_heap_size_used_bytes",
        "nodejs_eventloop_lag_seconds",
      ]),
    );
  });

  it("leaves the default process metrics out when asked", async () => {
    const { registry } = createObservability({ defaultMetrics: false });
    const names = (await registry.getMetricsAsJSON()).map((metric) => metric.name);
    expect(names).toEqual([
      rpcMetricNames.requests,
      rpcMetricNames.duration,
      rpcMetricNames.inFlight,
    ]);
  });

  it("rejects invalid options at once", () => {
    expect(() => createObservability({ sli: { bucketSeconds: 0 } })).toThrow(RangeError);
    expect(() => createObservability({ sli: { retentionHours: Number.NaN } })).toThrow(RangeError);
    expect(() => createObservability({ sli: { targets: { availability: 101 } } })).toThrow(
      RangeError,
    );
    expect(() => createObservability({ sli: { targets: { latencyP95: -1 } } })).toThrow(RangeError);
    expect(() => createObservability({ sli: { warningFactor: 0.5 } })).toThrow(RangeError);
    expect(() => createObservability({ healthProbeTimeoutMs: 0 })).toThrow(RangeError);
  });

  it("counts every RPC by service, method, protocol and code through its interceptor", async () => {
    let fail: PluginError | Error | undefined;
    const { plugin } = createRecordingPlugin({
      getProjectedCost: () => {
        if (fail) throw fail;
        return { currency: "USD" };
      },
    });
    const observability = createObservability({ defaultMetrics: false });
    const { costSource } = createTestClient(plugin, { observability });
    await costSource.getProjectedCost({ resource: ec2 });
    await costSource.getProjectedCost({ resource: ec2 });
    fail = new PluginError(ErrorCode.RESOURCE_NOT_FOUND, "no such sku");
    await rejectionOf(costSource.getProjectedCost({ resource: ec2 }));
    await rejectionOf(costSource.getProjectedCost({ resource: {} }));
    const counter = await observability.registry.getSingleMetric(rpcMetricNames.requests)?.get();
    const base = {
      service: "costplugin.v1.CostSourceService",
      method: "GetProjectedCost",
      protocol: "connect",
    };
    expect(counter?.values).toEqual(
      expect.arrayContaining([
        { labels: { ...base, code: "ok" }, value: 2 },
        { labels: { ...base, code: "not_found" }, value: 1 },
        { labels: { ...base, code: "invalid_argument" }, value: 1 },
      ]),
    );
    expect(counter?.values).toHaveLength(3);
  });

  it("lets a plugin register its own metrics on the registry", async () => {
    const observability = createObservability({ defaultMetrics: false });
    const lookups = new Counter({
      name: "pricing_catalogue_lookups_total",
      help: "Catalogue lookups.",
      registers: [observability.registry],
    });
    lookups.inc(3);
    const { observability: client } = createTestClient(createRecordingPlugin().plugin, {
      observability,
    });
    const response = await client.getMetrics({ metricNames: ["pricing_catalogue_lookups_total"] });
    expect(response.metrics).toHaveLength(1);
    expect(response.metrics[0]?.samples[0]?.value).toBe(3);
  });

  it("answers health() from the probe the routes installed", async () => {
    const clock = createFakeClock();
    const observability = createObservability({ defaultMetrics: false, clock });
    let healthy = true;
    const { plugin } = createRecordingPlugin({
      health: () => (healthy ? { status: "serving" } : { status: "not_serving", message: "stale" }),
    });
    createTestClient(plugin, { observability });
    expect((await observability.health()).status).toBe("serving");
    healthy = false;
    expect(await observability.health()).toMatchObject({ status: "not_serving", message: "stale" });
  });

  it("answers serving when no probe is installed", async () => {
    expect((await createObservability({ defaultMetrics: false }).health()).status).toBe("serving");
  });
});
