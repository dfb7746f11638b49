import type {
  StreamRequest,
  StreamResponse,
  UnaryRequest,
  UnaryResponse,
} from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import { CostSourceService } from "@costplugin/proto";
import { Health } from "@costplugin/proto/grpc-health";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createFakeClock } from "./fake-clock.js";
import { createRpcInterceptor } from "./rpc-interceptor.js";
import { createRpcMetrics, defaultDurationBuckets, rpcMetricNames } from "./rpc-metrics.js";
import { createSliWindow } from "./sli-window.js";

function setup() {
  const registry = new Registry();
  const clock = createFakeClock();
  const sliWindow = createSliWindow({ bucketSeconds: 10, retentionSeconds: 3600 });
  const interceptor = createRpcInterceptor({
    metrics: createRpcMetrics(registry, defaultDurationBuckets),
    sliWindow,
    sliServices: new Set([CostSourceService.typeName]),
    clock,
  });
  const counts = async () =>
    (await registry.getSingleMetric(rpcMetricNames.requests)?.get())?.values ?? [];
  return { registry, clock, sliWindow, interceptor, counts };
}

function unaryRequest(contentType: string | null): UnaryRequest {
  const header = new Headers();
  if (contentType !== null) header.set("content-type", contentType);
  return {
    stream: false,
    service: CostSourceService,
    method: CostSourceService.method.getProjectedCost,
    header,
    signal: new AbortController().signal,
  } as unknown as UnaryRequest;
}

function streamRequest(signal: AbortSignal): StreamRequest {
  return {
    stream: true,
    service: Health,
    method: Health.method.watch,
    header: new Headers({ "content-type": "application/grpc" }),
    signal,
  } as unknown as StreamRequest;
}

describe("createRpcInterceptor", () => {
  it.each([
    ["application/grpc+proto", "grpc"],
    ["application/grpc-web+proto", "grpc-web"],
    ["application/json", "connect"],
  ])("labels a %s request with protocol %s", async (contentType, protocol) => {
    const { interceptor, counts } = setup();
    await interceptor(async () => ({ stream: false }) as UnaryResponse)(unaryRequest(contentType));
    expect((await counts())[0]?.labels).toEqual({
      service: "costplugin.v1.CostSourceService",
      method: "GetProjectedCost",
      protocol,
      code: "ok",
    });
  });

  it("labels a thrown ConnectError with its code and rethrows it unchanged", async () => {
    const { interceptor, counts } = setup();
    const error = new ConnectError("gone", Code.NotFound);
    await expect(
      interceptor(async () => {
        throw error;
      })(unaryRequest("application/proto")),
    ).rejects.toBe(error);
    expect((await counts())[0]?.labels.code).toBe("not_found");
  });

  it("labels any other exception as internal, as Connect answers it", async () => {
    const { interceptor, counts } = setup();
    await expect(
      interceptor(async () => {
        throw new Error("boom");
      })(unaryRequest("application/proto")),
    ).rejects.toThrow("boom");
    expect((await counts())[0]?.labels.code).toBe("internal");
  });

  it("measures a streaming RPC until its last message", async () => {
    const { interceptor, counts, clock, registry } = setup();
    const clockRef = clock;
    async function* messages() {
      yield 1;
      clockRef.advance(2000);
      yield 2;
    }
    const response = (await interceptor(
      async () => ({ stream: true, message: messages() }) as unknown as StreamResponse,
    )(streamRequest(new AbortController().signal))) as StreamResponse;
    expect(await counts()).toEqual([]);
    const seen: unknown[] = [];
    for await (const message of response.message) seen.push(message);
    expect(seen).toEqual([1, 2]);
    expect((await counts())[0]?.labels).toMatchObject({
      method: "Watch",
      protocol: "grpc",
      code: "ok",
    });
    const duration = await registry.getSingleMetric(rpcMetricNames.duration)?.get();
    const sum = duration?.values.find((v) =>
      (v as { metricName?: string }).metricName?.endsWith("_sum"),
    );
    expect(sum?.value).toBe(2);
  });

  it("counts a stream the consumer abandons as canceled, once", async () => {
    const { interceptor, counts } = setup();
    async function* endless() {
      for (;;) yield 0;
    }
    const response = (await interceptor(
      async () => ({ stream: true, message: endless() }) as unknown as StreamResponse,
    )(streamRequest(new AbortController().signal))) as StreamResponse;
    for await (const _ of response.message) break;
    const values = await counts();
    expect(values).toHaveLength(1);
    expect(values[0]).toMatchObject({ labels: { code: "canceled" }, value: 1 });
  });

  it("feeds the SLI window with CostSourceService calls only, leaving canceled ones out", async () => {
    const { interceptor, sliWindow, clock } = setup();
    const ok = async () => ({ stream: false }) as UnaryResponse;
    await interceptor(ok)(unaryRequest("application/proto"));
    await expect(
      interceptor(async () => {
        throw new ConnectError("caller left", Code.Canceled);
      })(unaryRequest("application/proto")),
    ).rejects.toThrow();
    await expect(
      interceptor(async () => {
        throw new ConnectError("down", Code.Unavailable);
      })(unaryRequest("application/proto")),
    ).rejects.toThrow();
    const summary = sliWindow.summarize({ startMs: clock.now() - 1, endMs: clock.now() + 1 });
    expect(summary).toMatchObject({ total: 2, faults: 1 });
  });
});
