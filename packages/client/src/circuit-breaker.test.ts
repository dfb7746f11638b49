import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorCategory, ErrorCode, ErrorDetailSchema } from "@costplugin/proto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PluginCircuitBreaker } from "./circuit-breaker.js";
import {
  createPluginCircuitBreaker,
  isLocalCircuitOpenError,
  isPluginFailure,
  resolveCircuitBreakerOptions,
} from "./circuit-breaker.js";
import { errorDetailFromError } from "./error-detail.js";

const unavailable = () => new ConnectError("down", Code.Unavailable);
const invalid = () => new ConnectError("bad resource", Code.InvalidArgument);

/** Runs one call through the breaker; `outcome` is what the plugin does. */
async function call(
  breaker: PluginCircuitBreaker,
  outcome: "ok" | (() => unknown),
  calls: { count: number },
): Promise<unknown> {
  try {
    return await breaker.execute(async () => {
      calls.count += 1;
      if (outcome === "ok") return "ok";
      throw outcome();
    });
  } catch (error) {
    return error;
  }
}

async function fail(breaker: PluginCircuitBreaker, times: number, calls = { count: 0 }) {
  for (let i = 0; i < times; i++) await call(breaker, unavailable, calls);
}

describe("createPluginCircuitBreaker", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date("2025-01-01T00:00:00Z") });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("stays closed after four consecutive failures", async () => {
    const breaker = createPluginCircuitBreaker();
    await fail(breaker, 4);
    expect(breaker.state).toBe("closed");
  });

  it("opens after five consecutive failures and then fails fast without calling the plugin", async () => {
    const breaker = createPluginCircuitBreaker();
    const calls = { count: 0 };
    await fail(breaker, 5, calls);
    expect(breaker.state).toBe("open");
    const error = await call(breaker, "ok", calls);
    expect(calls.count).toBe(5);
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).code).toBe(Code.Unavailable);
    expect(isLocalCircuitOpenError(error)).toBe(true);
  });

  it("fails fast with an ErrorDetail CIRCUIT_OPEN saying when it half-opens", async () => {
    const breaker = createPluginCircuitBreaker();
    await fail(breaker, 5);
    const detail = errorDetailFromError(await call(breaker, "ok", { count: 0 }));
    expect(detail?.code).toBe(ErrorCode.CIRCUIT_OPEN);
    expect(detail?.category).toBe(ErrorCategory.TRANSIENT);
    expect(detail?.retryAfterSeconds).toBe(60);
    expect(detail?.message).toMatch(/circuit breaker open/);
    vi.advanceTimersByTime(20_500);
    expect(errorDetailFromError(await call(breaker, "ok", { count: 0 }))?.retryAfterSeconds).toBe(
      40,
    );
  });

  it("does not count invalid_argument, which proves the plugin answered", async () => {
    const breaker = createPluginCircuitBreaker();
    await fail(breaker, 4);
    const error = await call(breaker, invalid, { count: 0 });
    expect((error as ConnectError).code).toBe(Code.InvalidArgument);
    await fail(breaker, 4);
    expect(breaker.state).toBe("closed");
  });

  it("does not count permanent or configuration errors", async () => {
    const breaker = createPluginCircuitBreaker();
    for (const code of [ErrorCode.RESOURCE_NOT_FOUND, ErrorCode.PLUGIN_NOT_CONFIGURED]) {
      for (let i = 0; i < 6; i++) {
        await call(
          breaker,
          () =>
            new ConnectError("no", Code.Unavailable, undefined, [
              { desc: ErrorDetailSchema, value: { code } },
            ]),
          { count: 0 },
        );
      }
    }
    expect(breaker.state).toBe("closed");
  });

  it("counts a transient ErrorDetail and an unexpected exception as failures", async () => {
    const breaker = createPluginCircuitBreaker();
    const rateLimited = () =>
      new ConnectError("slow", Code.ResourceExhausted, undefined, [
        { desc: ErrorDetailSchema, value: { code: ErrorCode.RATE_LIMITED } },
      ]);
    for (let i = 0; i < 3; i++) await call(breaker, rateLimited, { count: 0 });
    await call(breaker, () => new TypeError("boom"), { count: 0 });
    await call(breaker, () => new ConnectError("?", Code.Internal), { count: 0 });
    expect(breaker.state).toBe("open");
  });

  it("counts a cancelled call neither as failure nor as success", async () => {
    const breaker = createPluginCircuitBreaker();
    await fail(breaker, 4);
    await call(breaker, () => new ConnectError("cancelled", Code.Canceled), { count: 0 });
    await fail(breaker, 1);
    expect(breaker.state).toBe("open");
  });

  it("opens when more than half of at least ten calls failed without five in a row", async () => {
    const breaker = createPluginCircuitBreaker();
    const pattern = ["F", "F", "S", "F", "F", "S", "F", "F", "S"];
    for (const step of pattern)
      await call(breaker, step === "F" ? unavailable : "ok", { count: 0 });
    expect(breaker.state).toBe("closed");
    await fail(breaker, 1);
    expect(breaker.state).toBe("open");
  });

  it("stays closed at exactly half failures and opens once the share exceeds it", async () => {
    const breaker = createPluginCircuitBreaker();
    for (let i = 0; i < 5; i++) {
      await call(breaker, "ok", { count: 0 });
      await fail(breaker, 1);
    }
    expect(breaker.state).toBe("closed");
    await fail(breaker, 1);
    expect(breaker.state).toBe("open");
  });

  it("half-opens after sixty seconds and closes when the probe succeeds", async () => {
    const breaker = createPluginCircuitBreaker();
    const calls = { count: 0 };
    await fail(breaker, 5, calls);
    vi.advanceTimersByTime(59_999);
    expect(isLocalCircuitOpenError(await call(breaker, "ok", calls))).toBe(true);
    expect(calls.count).toBe(5);
    vi.advanceTimersByTime(1);
    expect(await call(breaker, "ok", calls)).toBe("ok");
    expect(calls.count).toBe(6);
    expect(breaker.state).toBe("closed");
    await fail(breaker, 4);
    expect(breaker.state).toBe("closed");
  });

  it("opens again for sixty seconds when the probe fails", async () => {
    const breaker = createPluginCircuitBreaker();
    await fail(breaker, 5);
    vi.advanceTimersByTime(60_000);
    await fail(breaker, 1);
    expect(breaker.state).toBe("open");
    vi.advanceTimersByTime(59_000);
    expect(isLocalCircuitOpenError(await call(breaker, "ok", { count: 0 }))).toBe(true);
    vi.advanceTimersByTime(1_000);
    expect(await call(breaker, "ok", { count: 0 })).toBe("ok");
  });

  it("holds concurrent calls while the probe runs and lets them through when it succeeds", async () => {
    const breaker = createPluginCircuitBreaker({ halfOpenAfterMs: 1_000 });
    await fail(breaker, 5);
    vi.advanceTimersByTime(1_000);
    let release: () => void = () => {};
    const probe = breaker.execute(
      () =>
        new Promise<string>((resolve) => {
          release = () => resolve("probe");
        }),
    );
    expect(breaker.state).toBe("half-open");
    const waiting = breaker.execute(async () => "second");
    release();
    await expect(probe).resolves.toBe("probe");
    await expect(waiting).resolves.toBe("second");
  });

  it("honours custom thresholds", async () => {
    const breaker = createPluginCircuitBreaker({ consecutiveFailures: 2 });
    await fail(breaker, 2);
    expect(breaker.state).toBe("open");
  });
});

describe("resolveCircuitBreakerOptions", () => {
  it("defaults to 5 consecutive, more than 50 % of 10 to 20 calls, 60 s", () => {
    expect(resolveCircuitBreakerOptions()).toEqual({
      consecutiveFailures: 5,
      failureRateThreshold: 0.5,
      minimumCalls: 10,
      windowSize: 20,
      halfOpenAfterMs: 60_000,
    });
  });

  it("rejects values that cannot work", () => {
    for (const options of [
      { consecutiveFailures: 0 },
      { failureRateThreshold: 1 },
      { failureRateThreshold: 0 },
      { minimumCalls: 30 },
      { windowSize: 1.5 },
      { halfOpenAfterMs: 0 },
    ]) {
      expect(() => resolveCircuitBreakerOptions(options)).toThrow(RangeError);
    }
  });
});

describe("isPluginFailure", () => {
  it("counts transport failures without a detail", () => {
    for (const code of [Code.Unavailable, Code.DeadlineExceeded, Code.Internal, Code.Unknown]) {
      expect(isPluginFailure(new ConnectError("x", code))).toBe(true);
    }
  });

  it("counts an internal error whose detail has neither code nor category", () => {
    const crashed = new ConnectError("internal error", Code.Internal, undefined, [
      { desc: ErrorDetailSchema, value: { message: "internal error" } },
    ]);
    expect(isPluginFailure(crashed)).toBe(true);
  });

  it("does not count answers that reject the request", () => {
    for (const code of [
      Code.InvalidArgument,
      Code.NotFound,
      Code.Unimplemented,
      Code.PermissionDenied,
      Code.FailedPrecondition,
      Code.ResourceExhausted,
      Code.Canceled,
    ]) {
      expect(isPluginFailure(new ConnectError("x", code))).toBe(false);
    }
  });
});
