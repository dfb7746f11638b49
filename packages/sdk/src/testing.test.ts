import type { Interceptor } from "@connectrpc/connect";
import { Code } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { createFakeClock } from "./fake-clock.js";
import { createObservability } from "./observability.js";
import { definePlugin } from "./plugin.js";
import { rpcMetricNames } from "./rpc-metrics.js";
import { rejectionOf } from "./test-helpers.js";
import { createTestClient } from "./testing.js";

describe("createTestClient", () => {
  const plugin = definePlugin({
    name: "demo",
    coverage: { providers: ["aws"], resourceTypes: ["ec2"] },
    getProjectedCost: () => ({ unitPrice: 0.0104, currency: "USD", costPerMonth: 7.592 }),
  });

  it("calls a plugin in memory with validation and error mapping in place", async () => {
    const { costSource } = createTestClient(plugin, {
      observability: createObservability({ defaultMetrics: false }),
    });
    const cost = await costSource.getProjectedCost({
      resource: { provider: "aws", resourceType: "ec2" },
    });
    expect(cost.costPerMonth).toBe(7.592);
    expect((await rejectionOf(costSource.getProjectedCost({}))).code).toBe(Code.InvalidArgument);
    expect(
      (await costSource.supports({ resource: { provider: "aws", resourceType: "ec2" } })).supported,
    ).toBe(true);
  });

  it("measures calls with the observability interceptor, as a server would", async () => {
    const { costSource, observability } = createTestClient(plugin, {
      observability: createObservability({ defaultMetrics: false }),
    });
    await costSource.name({});
    const { metrics } = await observability.getMetrics({ metricNames: [rpcMetricNames.requests] });
    expect(metrics[0]?.samples.map((s) => [s.labels.method, s.value])).toEqual([["Name", 1]]);
  });

  it("exposes the observability behind it and honours an injected clock", async () => {
    const clock = createFakeClock(Date.UTC(2030, 5, 1));
    const { telemetry, health } = createTestClient(plugin, {
      observability: createObservability({ defaultMetrics: false, clock }),
    });
    expect(telemetry.clock.now()).toBe(Date.UTC(2030, 5, 1));
    expect((await health.check({})).status).toBe(1);
  });

  it("runs extra interceptors after the observability interceptor", async () => {
    const seen: string[] = [];
    const tracer: Interceptor = (next) => async (req) => {
      seen.push(req.method.name);
      return next(req);
    };
    const { costSource } = createTestClient(plugin, {
      observability: createObservability({ defaultMetrics: false }),
      interceptors: [tracer],
    });
    await costSource.name({});
    expect(seen).toEqual(["Name"]);
  });
});
