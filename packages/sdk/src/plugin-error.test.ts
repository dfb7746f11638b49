import { toJsonString } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { ErrorCategory, ErrorCode, ErrorDetailSchema } from "@costplugin/proto";
import { describe, expect, it } from "vitest";
import { createObservability } from "./observability.js";
import {
  categoryFromErrorCode,
  connectCodeFromErrorCode,
  connectErrorFromPluginError,
  PluginError,
} from "./plugin-error.js";
import { createRecordingPlugin, onlyErrorDetail, rejectionOf } from "./test-helpers.js";
import { createTestClient } from "./testing.js";

const expected: ReadonlyArray<[ErrorCode, Code, ErrorCategory]> = [
  [ErrorCode.NETWORK_TIMEOUT, Code.Unavailable, ErrorCategory.TRANSIENT],
  [ErrorCode.SERVICE_UNAVAILABLE, Code.Unavailable, ErrorCategory.TRANSIENT],
  [ErrorCode.RATE_LIMITED, Code.ResourceExhausted, ErrorCategory.TRANSIENT],
  [ErrorCode.TEMPORARY_FAILURE, Code.Unavailable, ErrorCategory.TRANSIENT],
  [ErrorCode.CIRCUIT_OPEN, Code.Unavailable, ErrorCategory.TRANSIENT],
  [ErrorCode.INVALID_RESOURCE, Code.InvalidArgument, ErrorCategory.PERMANENT],
  [ErrorCode.RESOURCE_NOT_FOUND, Code.NotFound, ErrorCategory.PERMANENT],
  [ErrorCode.INVALID_TIME_RANGE, Code.InvalidArgument, ErrorCategory.PERMANENT],
  [ErrorCode.UNSUPPORTED_REGION, Code.Unimplemented, ErrorCategory.PERMANENT],
  [ErrorCode.PERMISSION_DENIED, Code.PermissionDenied, ErrorCategory.PERMANENT],
  [ErrorCode.DATA_CORRUPTION, Code.DataLoss, ErrorCategory.PERMANENT],
  [ErrorCode.INVALID_CREDENTIALS, Code.PermissionDenied, ErrorCategory.CONFIGURATION],
  [ErrorCode.MISSING_API_KEY, Code.FailedPrecondition, ErrorCategory.CONFIGURATION],
  [ErrorCode.INVALID_ENDPOINT, Code.FailedPrecondition, ErrorCategory.CONFIGURATION],
  [ErrorCode.INVALID_PROVIDER, Code.Unimplemented, ErrorCategory.CONFIGURATION],
  [ErrorCode.PLUGIN_NOT_CONFIGURED, Code.FailedPrecondition, ErrorCategory.CONFIGURATION],
];

const ec2 = { provider: "aws", resourceType: "ec2" };

describe("PluginError", () => {
  it.each(expected)(
    "travels as ErrorCode %i with Connect code %i and category %i in exactly one ErrorDetail",
    async (errorCode, connectCode, category) => {
      const { plugin } = createRecordingPlugin({
        getProjectedCost: () => {
          throw new PluginError(errorCode, "the vendor said no", {
            details: { region: "us-east-1" },
          });
        },
      });
      const client = createTestClient(plugin, {
        observability: createObservability({ defaultMetrics: false }),
      });
      const error = await rejectionOf(client.costSource.getProjectedCost({ resource: ec2 }));
      expect(error.code).toBe(connectCode);
      expect(error.rawMessage).toBe("the vendor said no");
      const detail = onlyErrorDetail(error);
      expect(detail.code).toBe(errorCode);
      expect(detail.category).toBe(category);
      expect(detail.message).toBe("the vendor said no");
      expect(detail.details).toEqual({ region: "us-east-1" });
      expect(detail.retryAfterSeconds).toBeUndefined();
      expect(detail.timestamp).toBeDefined();
    },
  );

  it("carries retry_after_seconds, rounded up to whole seconds", async () => {
    const { plugin } = createRecordingPlugin({
      getPricingSpec: () => {
        throw new PluginError(ErrorCode.RATE_LIMITED, "slow down", { retryAfterSeconds: 2.2 });
      },
    });
    const client = createTestClient(plugin, {
      observability: createObservability({ defaultMetrics: false }),
    });
    const error = await rejectionOf(client.costSource.getPricingSpec({ resource: ec2 }));
    expect(error.code).toBe(Code.ResourceExhausted);
    expect(onlyErrorDetail(error).retryAfterSeconds).toBe(3);
  });

  it("drops a negative or non-finite retry-after instead of sending garbage", () => {
    expect(
      new PluginError(ErrorCode.RATE_LIMITED, "x", { retryAfterSeconds: -1 }).retryAfterSeconds,
    ).toBeUndefined();
    expect(
      new PluginError(ErrorCode.RATE_LIMITED, "x", { retryAfterSeconds: Number.NaN })
        .retryAfterSeconds,
    ).toBeUndefined();
    expect(
      new PluginError(ErrorCode.RATE_LIMITED, "x", { retryAfterSeconds: 1e12 }).retryAfterSeconds,
    ).toBe(2_147_483_647);
  });

  it("keeps its cause for the server without exposing it", () => {
    const cause = new Error("socket hang up");
    const error = new PluginError(ErrorCode.NETWORK_TIMEOUT, "vendor timed out", { cause });
    expect(error.cause).toBe(cause);
    const connectError = connectErrorFromPluginError(error);
    expect(connectError.rawMessage).toBe("vendor timed out");
    expect(toJsonString(ErrorDetailSchema, onlyErrorDetail(connectError))).not.toContain(
      "socket hang up",
    );
  });
});

describe("categoryFromErrorCode", () => {
  it("answers unspecified for ERROR_CODE_UNSPECIFIED and unknown values", () => {
    expect(categoryFromErrorCode(ErrorCode.UNSPECIFIED)).toBe(ErrorCategory.UNSPECIFIED);
    expect(categoryFromErrorCode(99 as ErrorCode)).toBe(ErrorCategory.UNSPECIFIED);
  });
});

describe("connectCodeFromErrorCode", () => {
  it("maps ERROR_CODE_UNSPECIFIED and unknown values to internal", () => {
    expect(connectCodeFromErrorCode(ErrorCode.UNSPECIFIED)).toBe(Code.Internal);
    expect(connectCodeFromErrorCode(99 as ErrorCode)).toBe(Code.Internal);
  });
});

describe("connectErrorFromPluginError", () => {
  it("stamps the ErrorDetail with the time it was made", () => {
    const before = Date.now();
    const detail = onlyErrorDetail(
      connectErrorFromPluginError(new PluginError(ErrorCode.DATA_CORRUPTION, "bad row")),
    );
    expect(detail.timestamp && timestampDate(detail.timestamp).getTime()).toBeGreaterThanOrEqual(
      before - 1000,
    );
  });
});
