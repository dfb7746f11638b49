import { createClient, createRouterTransport } from "@connectrpc/connect";
import { CostSourceService, ObservabilityService } from "@costplugin/proto";
import { Health } from "@costplugin/proto/grpc-health";
import { describe, expect, it } from "vitest";
import { createObservability } from "./observability.js";
import { createPluginRoutes } from "./plugin-routes.js";
import { rpcMetricNames } from "./rpc-metrics.js";
import { createRecordingPlugin } from "./test-helpers.js";

describe("createPluginRoutes", () => {
  it("registers CostSourceService, ObservabilityService and grpc.health.v1.Health", () => {
    const routes = createPluginRoutes(createRecordingPlugin().plugin, {
      observability: createObservability({ defaultMetrics: false }),
    });
    const services: string[] = [];
    routes({
      handlers: [],
      service(service) {
        services.push(service.typeName);
        return this;
      },
      rpc() {
        return this;
      },
    });
    expect(services).toEqual([
      CostSourceService.typeName,
      ObservabilityService.typeName,
      Health.typeName,
    ]);
  });

  it("answers from the observability it was given and exposes it", async () => {
    const observability = createObservability({ defaultMetrics: false });
    const routes = createPluginRoutes(createRecordingPlugin().plugin, { observability });
    expect(routes.observability).toBe(observability);
    const transport = createRouterTransport(routes, {
      router: { interceptors: [observability.interceptor] },
    });
    await createClient(CostSourceService, transport).name({});
    const counter = await observability.registry.getSingleMetric(rpcMetricNames.requests)?.get();
    expect(counter?.values).toEqual([
      {
        labels: {
          service: CostSourceService.typeName,
          method: "Name",
          protocol: "connect",
          code: "ok",
        },
        value: 1,
      },
    ]);
  });

  it("creates its own observability when none is given", () => {
    const routes = createPluginRoutes(createRecordingPlugin().plugin);
    expect(routes.observability.registry).toBeDefined();
  });

  it("installs the plugin's health probe, so readiness flips when the probe fails", async () => {
    let ready = true;
    const { plugin } = createRecordingPlugin({
      health: async () =>
        ready ? { status: "serving" } : { status: "not_serving", message: "billing data is stale" },
    });
    const observability = createObservability({ defaultMetrics: false });
    createPluginRoutes(plugin, { observability });
    expect((await observability.health()).status).toBe("serving");
    ready = false;
    expect(await observability.health()).toMatchObject({
      status: "not_serving",
      message: "billing data is stale",
    });
    ready = true;
    expect((await observability.health()).status).toBe("serving");
  });

  it("rejects invalid options at once", () => {
    const { plugin } = createRecordingPlugin();
    const observability = createObservability({ defaultMetrics: false });
    expect(() => createPluginRoutes(plugin, { observability, maxActualCostSpanDays: 0 })).toThrow(
      "maxActualCostSpanDays must be a positive number, got 0",
    );
    expect(() => createPluginRoutes(plugin, { observability, healthWatchIntervalMs: -1 })).toThrow(
      RangeError,
    );
    expect(() => createPluginRoutes(plugin, { observability, limits: { maxTags: 1.5 } })).toThrow(
      "limits.maxTags must be a positive integer, got 1.5",
    );
  });
});
