import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorCode, ErrorDetailSchema } from "@costplugin/proto";
import { describe, expect, it } from "vitest";
import type { ResolvedRetryOptions } from "./retry-options.js";
import { defaultRetryOptions, resolveRetryOptions, retryDelayFor } from "./retry-options.js";

const transient = new ConnectError("try later", Code.Unavailable);
const noJitter: ResolvedRetryOptions = { ...defaultRetryOptions, jitter: 0 };

function withRetryAfter(seconds: number): ConnectError {
  return new ConnectError("slow down", Code.ResourceExhausted, undefined, [
    {
      desc: ErrorDetailSchema,
      value: { code: ErrorCode.RATE_LIMITED, retryAfterSeconds: seconds },
    },
  ]);
}

describe("resolveRetryOptions", () => {
  it("defaults to 3 attempts, 100 ms, factor 2, a 30 s cap and 10 % jitter", () => {
    expect(resolveRetryOptions()).toEqual({
      maxAttempts: 3,
      initialDelayMs: 100,
      backoffFactor: 2,
      maxDelayMs: 30_000,
      jitter: 0.1,
    });
  });

  it("keeps defaults for options given as undefined", () => {
    expect(resolveRetryOptions({ maxAttempts: undefined, jitter: 0 }).maxAttempts).toBe(3);
  });

  it("rejects values that cannot work", () => {
    for (const options of [
      { maxAttempts: 0 },
      { maxAttempts: 2.5 },
      { initialDelayMs: -1 },
      { backoffFactor: 0.5 },
      { maxDelayMs: Number.NaN },
      { jitter: 1.5 },
    ]) {
      expect(() => resolveRetryOptions(options)).toThrow(RangeError);
    }
  });
});

describe("retryDelayFor", () => {
  it("grows the delay exponentially from the initial delay", () => {
    const delays = [1, 2, 3, 4].map((attempt) => retryDelayFor(transient, attempt, noJitter));
    expect(delays).toEqual([100, 200, 400, 800]);
  });

  it("caps the delay at maxDelayMs", () => {
    expect(retryDelayFor(transient, 20, noJitter)).toBe(30_000);
  });

  it("keeps jittered delays within plus or minus the jitter share", () => {
    const options = defaultRetryOptions;
    expect(retryDelayFor(transient, 2, options, () => 0)).toBe(180);
    expect(retryDelayFor(transient, 2, options, () => 0.5)).toBe(200);
    expect(retryDelayFor(transient, 2, options, () => 0.999_999)).toBe(220);
    for (let i = 0; i < 200; i++) {
      const delay = retryDelayFor(transient, 3, options) ?? -1;
      expect(delay).toBeGreaterThanOrEqual(360);
      expect(delay).toBeLessThanOrEqual(440);
    }
  });

  it("never jitters above the cap", () => {
    expect(retryDelayFor(transient, 30, defaultRetryOptions, () => 0.999_999)).toBe(30_000);
    expect(retryDelayFor(transient, 30, defaultRetryOptions, () => 0)).toBe(27_000);
  });

  it("uses the server's retry_after_seconds instead of the computed delay", () => {
    expect(retryDelayFor(withRetryAfter(3), 1, defaultRetryOptions, () => 0)).toBe(3_000);
    expect(retryDelayFor(withRetryAfter(0), 2, defaultRetryOptions)).toBe(0);
  });

  it("gives up when retry_after_seconds is longer than maxDelayMs", () => {
    expect(retryDelayFor(withRetryAfter(31), 1, defaultRetryOptions)).toBeUndefined();
    expect(retryDelayFor(withRetryAfter(2_147_483_647), 1, defaultRetryOptions)).toBeUndefined();
  });

  it("ignores a negative retry_after_seconds", () => {
    expect(retryDelayFor(withRetryAfter(-5), 1, noJitter)).toBe(100);
  });

  it("never retries permanent or configuration errors", () => {
    for (const code of [ErrorCode.INVALID_RESOURCE, ErrorCode.PLUGIN_NOT_CONFIGURED]) {
      const error = new ConnectError("no", Code.Unavailable, undefined, [
        { desc: ErrorDetailSchema, value: { code, retryAfterSeconds: 1 } },
      ]);
      expect(retryDelayFor(error, 1, defaultRetryOptions)).toBeUndefined();
    }
  });

  it("never retries errors that are not ConnectErrors", () => {
    expect(retryDelayFor(new TypeError("bad"), 1, defaultRetryOptions)).toBeUndefined();
  });
});
