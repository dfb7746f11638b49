import type { DescMethodUnary } from "@bufbuild/protobuf";
import { MethodOptions_IdempotencyLevel } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import type { NameRequestSchema, NameResponseSchema } from "@costplugin/proto";
import {
  CostSourceService,
  ErrorCode,
  ErrorDetailSchema,
  ObservabilityService,
} from "@costplugin/proto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { costPluginClientFromTransport } from "./cost-plugin-client.js";
import { errorDetailFromError } from "./error-detail.js";
import type { ResilienceOptions } from "./resilient-transport.js";
import { createResilientTransport } from "./resilient-transport.js";

type Outcome = "ok" | (() => Error);

/** A plugin whose Name answers from a script, recording each call's remaining deadline. */
function scriptedPlugin(script: Outcome[]) {
  const seen: Array<number | undefined> = [];
  const transport = createRouterTransport(({ service }) => {
    const answer = (context: HandlerContext) => {
      seen.push(context.timeoutMs());
      const outcome = script.length > 1 ? script.shift() : script[0];
      if (outcome === undefined || outcome === "ok") {
        return { name: String(context.timeoutMs() ?? "none") };
      }
      throw outcome();
    };
    service(CostSourceService, {
      name: (_request, context) => answer(context),
      getProjectedCost: (_request, context) => ({ unitPrice: context.timeoutMs() ?? -1 }),
      getActualCost: (_request, context) => {
        answer(context);
        return {};
      },
    });
    service(ObservabilityService, {
      healthCheck: (_request, context) => {
        answer(context);
        return {};
      },
    });
  });
  return { transport, seen };
}

function clientFor(script: Outcome[], options: ResilienceOptions = {}) {
  const plugin = scriptedPlugin(script);
  const client = costPluginClientFromTransport(
    createResilientTransport(plugin.transport, {
      retry: { jitter: 0 },
      circuitBreaker: false,
      ...options,
    }),
  );
  return { client, seen: plugin.seen };
}

const unavailable = () => new ConnectError("down", Code.Unavailable);
const withDetail = (code: ErrorCode, retryAfterSeconds?: number) => () =>
  new ConnectError("plugin says no", Code.Unavailable, undefined, [
    { desc: ErrorDetailSchema, value: { code, retryAfterSeconds } },
  ]);

/** Advances the fake clock until `promise` settles (at most a minute). */
async function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  let result: { value?: T; error?: unknown } | undefined;
  promise.then(
    (value) => {
      result = { value };
    },
    (error: unknown) => {
      result = { error };
    },
  );
  for (let i = 0; i < 1200 && result === undefined; i++) await vi.advanceTimersByTimeAsync(50);
  if (result === undefined) throw new Error("call did not settle");
  return result;
}

describe("createResilientTransport", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date("2025-01-01T00:00:00Z") });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("retries a transient failure until the call succeeds", async () => {
    const { client, seen } = clientFor([
      unavailable,
      withDetail(ErrorCode.TEMPORARY_FAILURE),
      "ok",
    ]);
    const { value } = await settle(client.costSource.name({}));
    expect(value?.name).toBeDefined();
    expect(seen).toHaveLength(3);
  });

  it("makes three attempts by default and then returns the last error", async () => {
    const { client, seen } = clientFor([withDetail(ErrorCode.SERVICE_UNAVAILABLE)]);
    const { error } = await settle(client.costSource.name({}));
    expect(errorDetailFromError(error)?.code).toBe(ErrorCode.SERVICE_UNAVAILABLE);
    expect(seen).toHaveLength(3);
  });

  it("honours maxAttempts", async () => {
    const { client, seen } = clientFor([unavailable], { retry: { maxAttempts: 5, jitter: 0 } });
    await settle(client.costSource.name({}));
    expect(seen).toHaveLength(5);
  });

  it("waits 100 ms before the first retry and 200 ms before the second", async () => {
    const { client, seen } = clientFor([unavailable, unavailable, "ok"]);
    const call = client.costSource.name({});
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(99);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(199);
    expect(seen).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen).toHaveLength(3);
    await expect(call).resolves.toBeDefined();
  });

  it("waits for retry_after_seconds instead of the computed delay", async () => {
    const { client, seen } = clientFor([withDetail(ErrorCode.RATE_LIMITED, 2), "ok"]);
    const call = client.costSource.name({});
    await vi.advanceTimersByTimeAsync(1_999);
    expect(seen).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(seen).toHaveLength(2);
    await expect(call).resolves.toBeDefined();
  });

  it("never retries permanent or configuration errors", async () => {
    for (const code of [
      ErrorCode.INVALID_RESOURCE,
      ErrorCode.DATA_CORRUPTION,
      ErrorCode.INVALID_CREDENTIALS,
      ErrorCode.PLUGIN_NOT_CONFIGURED,
    ]) {
      const { client, seen } = clientFor([withDetail(code, 0)]);
      const { error } = await settle(client.costSource.name({}));
      expect(errorDetailFromError(error)?.code).toBe(code);
      expect(seen).toHaveLength(1);
    }
  });

  it("does not retry invalid_argument or resource_exhausted without a detail", async () => {
    for (const code of [Code.InvalidArgument, Code.ResourceExhausted]) {
      const { client, seen } = clientFor([() => new ConnectError("no", code)]);
      const { error } = await settle(client.costSource.name({}));
      expect((error as ConnectError).code).toBe(code);
      expect(seen).toHaveLength(1);
    }
  });

  it("makes a single attempt when retries are disabled", async () => {
    const { client, seen } = clientFor([unavailable, "ok"], { retry: false });
    await settle(client.costSource.name({}));
    expect(seen).toHaveLength(1);
  });

  it("does not retry a method that may have side effects", async () => {
    const plugin = scriptedPlugin([unavailable, "ok"]);
    const transport = createResilientTransport(plugin.transport, { circuitBreaker: false });
    const method: DescMethodUnary<typeof NameRequestSchema, typeof NameResponseSchema> = {
      ...CostSourceService.method.name,
      idempotency: MethodOptions_IdempotencyLevel.IDEMPOTENCY_UNKNOWN,
    };
    const { error } = await settle(
      transport.unary(method, undefined, undefined, undefined, {}, undefined),
    );
    expect((error as ConnectError).code).toBe(Code.Unavailable);
    expect(plugin.seen).toHaveLength(1);
  });

  it("does not retry its own circuit-open error", async () => {
    const { client, seen } = clientFor([unavailable], {
      retry: { maxAttempts: 5, jitter: 0 },
      circuitBreaker: { consecutiveFailures: 2 },
    });
    const { error } = await settle(client.costSource.name({}));
    expect(errorDetailFromError(error)?.code).toBe(ErrorCode.CIRCUIT_OPEN);
    expect(seen).toHaveLength(2);
  });

  it("fails fast for both services once the shared circuit is open", async () => {
    const { client, seen } = clientFor([unavailable], {
      retry: false,
      circuitBreaker: { consecutiveFailures: 3 },
    });
    for (let i = 0; i < 3; i++) await settle(client.costSource.name({}));
    const { error } = await settle(client.observability.healthCheck({}));
    expect(errorDetailFromError(error)?.code).toBe(ErrorCode.CIRCUIT_OPEN);
    expect(seen).toHaveLength(3);
  });

  it("applies the method's default deadline", async () => {
    const { client } = clientFor(["ok"]);
    const { value } = await settle(client.costSource.getProjectedCost({}));
    expect(value?.unitPrice).toBeLessThanOrEqual(15_000);
    expect(value?.unitPrice).toBeGreaterThan(14_000);
    const name = await settle(client.costSource.name({}));
    expect(Number(name.value?.name)).toBeLessThanOrEqual(5_000);
    expect(Number(name.value?.name)).toBeGreaterThan(4_000);
  });

  it("lets a call's timeoutMs override the default deadline", async () => {
    const { client } = clientFor(["ok"]);
    const { value } = await settle(client.costSource.getProjectedCost({}, { timeoutMs: 1_234 }));
    expect(value?.unitPrice).toBeLessThanOrEqual(1_234);
    expect(value?.unitPrice).toBeGreaterThan(1_000);
  });

  it("lets the deadlines option override one default and keeps the others", async () => {
    const { client } = clientFor(["ok"], { deadlines: { GetProjectedCost: 2_000 } });
    const { value } = await settle(client.costSource.getProjectedCost({}));
    expect(value?.unitPrice).toBeLessThanOrEqual(2_000);
    const name = await settle(client.costSource.name({}));
    expect(Number(name.value?.name)).toBeGreaterThan(4_000);
  });

  it("applies no deadline when defaults are disabled or a call passes timeoutMs 0", async () => {
    const disabled = clientFor(["ok"], { deadlines: false });
    expect((await settle(disabled.client.costSource.getProjectedCost({}))).value?.unitPrice).toBe(
      -1,
    );
    const zero = clientFor(["ok"], { deadlines: { GetProjectedCost: 0 } });
    expect((await settle(zero.client.costSource.getProjectedCost({}))).value?.unitPrice).toBe(-1);
    const perCall = clientFor(["ok"]);
    const { value } = await settle(
      perCall.client.costSource.getProjectedCost({}, { timeoutMs: 0 }),
    );
    expect(value?.unitPrice).toBe(-1);
  });

  it("gives each retry only the time left and skips a retry that would end past the deadline", async () => {
    const { client, seen } = clientFor([unavailable]);
    const { error } = await settle(client.costSource.name({}, { timeoutMs: 250 }));
    expect((error as ConnectError).code).toBe(Code.Unavailable);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBeLessThanOrEqual(250);
    expect(seen[1]).toBeLessThanOrEqual(150);
    expect(seen[1]).toBeGreaterThan(100);
  });

  it("does not wait for a retry_after that ends past the deadline", async () => {
    const { client, seen } = clientFor([withDetail(ErrorCode.RATE_LIMITED, 10), "ok"]);
    const { error } = await settle(client.costSource.name({}));
    expect(errorDetailFromError(error)?.retryAfterSeconds).toBe(10);
    expect(seen).toHaveLength(1);
  });

  it("rejects at once with canceled when the caller aborts between attempts", async () => {
    const { client, seen } = clientFor([withDetail(ErrorCode.RATE_LIMITED, 3), "ok"]);
    const controller = new AbortController();
    const call = client.costSource.name({}, { signal: controller.signal });
    const outcome = call.then(
      () => undefined,
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    const error = await outcome;
    expect((error as ConnectError).code).toBe(Code.Canceled);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(seen).toHaveLength(1);
  });

  it("keeps the exact client types of createClient", async () => {
    const { transport } = scriptedPlugin(["ok"]);
    const client = createClient(CostSourceService, createResilientTransport(transport));
    const response = await settle(client.name({}));
    const name: string | undefined = response.value?.name;
    expect(typeof name).toBe("string");
  });

  it("rejects a deadline for a method the protocol does not have", () => {
    const { transport } = scriptedPlugin(["ok"]);
    expect(() =>
      createResilientTransport(transport, { deadlines: { Nmae: 1 } as unknown as object }),
    ).toThrow(/not a costplugin.v1 method/);
    expect(() => createResilientTransport(transport, { deadlines: { Name: -1 } })).toThrow(
      RangeError,
    );
  });
});
