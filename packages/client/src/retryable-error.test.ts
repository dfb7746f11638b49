import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorCategory, ErrorCode, ErrorDetailSchema } from "@costplugin/proto";
import { describe, expect, it } from "vitest";
import { isRetryableError } from "./retryable-error.js";

function pluginError(code: ErrorCode, connectCode: Code, category?: ErrorCategory): ConnectError {
  return new ConnectError("x", connectCode, undefined, [
    { desc: ErrorDetailSchema, value: { code, category } },
  ]);
}

describe("isRetryableError", () => {
  it("accepts every transient ErrorCode", () => {
    for (const code of [
      ErrorCode.NETWORK_TIMEOUT,
      ErrorCode.SERVICE_UNAVAILABLE,
      ErrorCode.RATE_LIMITED,
      ErrorCode.TEMPORARY_FAILURE,
      ErrorCode.CIRCUIT_OPEN,
    ]) {
      expect(isRetryableError(pluginError(code, Code.Unavailable))).toBe(true);
    }
  });

  it("rejects permanent and configuration ErrorCodes even when the status is unavailable", () => {
    for (let code = ErrorCode.INVALID_RESOURCE; code <= ErrorCode.PLUGIN_NOT_CONFIGURED; code++) {
      expect(isRetryableError(pluginError(code, Code.Unavailable))).toBe(false);
    }
  });

  it("lets the detail's category decide over its code", () => {
    const error = pluginError(ErrorCode.RATE_LIMITED, Code.Unavailable, ErrorCategory.PERMANENT);
    expect(isRetryableError(error)).toBe(false);
  });

  it("accepts unavailable and deadline_exceeded without a detail", () => {
    expect(isRetryableError(new ConnectError("x", Code.Unavailable))).toBe(true);
    expect(isRetryableError(new ConnectError("x", Code.DeadlineExceeded))).toBe(true);
  });

  it("rejects resource_exhausted without a detail, which means a size limit was hit", () => {
    expect(isRetryableError(new ConnectError("x", Code.ResourceExhausted))).toBe(false);
  });

  it("rejects every other code without a detail", () => {
    for (const code of [
      Code.Canceled,
      Code.Unknown,
      Code.InvalidArgument,
      Code.NotFound,
      Code.PermissionDenied,
      Code.FailedPrecondition,
      Code.Unimplemented,
      Code.Internal,
      Code.DataLoss,
      Code.Unauthenticated,
    ]) {
      expect(isRetryableError(new ConnectError("x", code))).toBe(false);
    }
  });

  it("lets the status code decide when the detail has neither code nor category", () => {
    const unspecified = (code: Code) =>
      new ConnectError("internal error", code, undefined, [
        { desc: ErrorDetailSchema, value: { message: "internal error" } },
      ]);
    expect(isRetryableError(unspecified(Code.Internal))).toBe(false);
    expect(isRetryableError(unspecified(Code.Unavailable))).toBe(true);
  });

  it("rejects values that are not ConnectErrors", () => {
    expect(isRetryableError(new Error("unavailable"))).toBe(false);
    expect(isRetryableError(undefined)).toBe(false);
  });
});
