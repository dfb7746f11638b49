import { Code } from "@connectrpc/connect";
import { HealthCheckResponse_Status } from "@costplugin/proto";
import { HealthCheckResponse_ServingStatus } from "@costplugin/proto/grpc-health";
import { describe, expect, it } from "vitest";
import { createObservability } from "./observability.js";
import type { HealthReport } from "./plugin.js";
import {
  createCapturingLogger,
  createRecordingPlugin,
  onlyErrorDetail,
  rejectionOf,
} from "./test-helpers.js";
import { createTestClient } from "./testing.js";

function setup() {
  const state: { report: HealthReport | Error } = { report: { status: "serving" } };
  const { plugin } = createRecordingPlugin({
    health: () => {
      if (state.report instanceof Error) throw state.report;
      return state.report;
    },
  });
  const client = createTestClient(plugin, {
    observability: createObservability({
      defaultMetrics: false,
      logger: createCapturingLogger().logger,
    }),
    healthWatchIntervalMs: 1,
  });
  return { state, client };
}

describe("createGrpcHealthService", () => {
  it("answers Check for the whole server and for each costplugin.v1 service", async () => {
    const { client } = setup();
    for (const service of [
      "",
      "costplugin.v1.CostSourceService",
      "costplugin.v1.ObservabilityService",
      "grpc.health.v1.Health",
    ]) {
      expect((await client.health.check({ service })).status).toBe(
        HealthCheckResponse_ServingStatus.SERVING,
      );
    }
  });

  it("answers not_found with an ErrorDetail for an unknown service", async () => {
    const { client } = setup();
    const error = await rejectionOf(client.health.check({ service: "acme.Unknown" }));
    expect(error.code).toBe(Code.NotFound);
    expect(error.rawMessage).toBe('unknown service "acme.Unknown"');
    onlyErrorDetail(error);
  });

  it("agrees with the costplugin.v1 HealthCheck when the probe fails", async () => {
    const { client, state } = setup();
    state.report = new Error("database unreachable");
    expect((await client.health.check({})).status).toBe(
      HealthCheckResponse_ServingStatus.NOT_SERVING,
    );
    expect((await client.observability.healthCheck({})).status).toBe(
      HealthCheckResponse_Status.NOT_SERVING,
    );
    state.report = { status: "serving" };
    expect((await client.health.check({})).status).toBe(HealthCheckResponse_ServingStatus.SERVING);
    expect((await client.observability.healthCheck({})).status).toBe(
      HealthCheckResponse_Status.SERVING,
    );
  });

  it("streams the current status on Watch, then each change, and stops when the caller aborts", async () => {
    const { client, state } = setup();
    const controller = new AbortController();
    const stream = client.health.watch({ service: "" }, { signal: controller.signal });
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value?.status).toBe(HealthCheckResponse_ServingStatus.SERVING);
    state.report = { status: "not_serving", message: "vendor down" };
    expect((await iterator.next()).value?.status).toBe(
      HealthCheckResponse_ServingStatus.NOT_SERVING,
    );
    state.report = { status: "serving" };
    expect((await iterator.next()).value?.status).toBe(HealthCheckResponse_ServingStatus.SERVING);
    controller.abort();
    await expect(iterator.next()).rejects.toMatchObject({ code: Code.Canceled });
  });

  it("sends SERVICE_UNKNOWN on Watch for an unknown service and keeps the stream open", async () => {
    const { client } = setup();
    const controller = new AbortController();
    const iterator = client.health
      .watch({ service: "acme.Unknown" }, { signal: controller.signal })
      [Symbol.asyncIterator]();
    expect((await iterator.next()).value?.status).toBe(
      HealthCheckResponse_ServingStatus.SERVICE_UNKNOWN,
    );
    const next = iterator.next();
    controller.abort();
    await expect(next).rejects.toMatchObject({ code: Code.Canceled });
  });
});
