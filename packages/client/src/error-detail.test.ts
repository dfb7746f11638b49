import { create, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorCategory, ErrorCode, ErrorDetailSchema } from "@costplugin/proto";
import { describe, expect, it } from "vitest";
import { errorCategoryFromCode, errorDetailFromError } from "./error-detail.js";

/** A ConnectError as a client receives it: details as type name and bytes. */
function receivedError(code: Code, details: Array<{ type: string; value: Uint8Array }>) {
  const error = new ConnectError("failed", code);
  error.details.push(...details.map((detail) => ({ ...detail, debug: undefined })));
  return error;
}

function wireError(...details: Uint8Array[]): ConnectError {
  return receivedError(
    Code.Unavailable,
    details.map((value) => ({ type: ErrorDetailSchema.typeName, value })),
  );
}

describe("errorDetailFromError", () => {
  it("decodes an ErrorDetail received as bytes, as every protocol delivers it", () => {
    const bytes = toBinary(
      ErrorDetailSchema,
      create(ErrorDetailSchema, {
        code: ErrorCode.RATE_LIMITED,
        category: ErrorCategory.TRANSIENT,
        message: "slow down",
        details: { vendor: "aws" },
        retryAfterSeconds: 7,
      }),
    );
    const detail = errorDetailFromError(wireError(bytes));
    expect(detail?.code).toBe(ErrorCode.RATE_LIMITED);
    expect(detail?.category).toBe(ErrorCategory.TRANSIENT);
    expect(detail?.message).toBe("slow down");
    expect(detail?.details).toEqual({ vendor: "aws" });
    expect(detail?.retryAfterSeconds).toBe(7);
  });

  it("decodes an ErrorDetail attached locally as a message", () => {
    const error = new ConnectError("nope", Code.NotFound, undefined, [
      {
        desc: ErrorDetailSchema,
        value: { code: ErrorCode.RESOURCE_NOT_FOUND, category: ErrorCategory.PERMANENT },
      },
    ]);
    expect(errorDetailFromError(error)?.code).toBe(ErrorCode.RESOURCE_NOT_FOUND);
  });

  it("leaves retry_after_seconds undefined when the sender did not set it", () => {
    const bytes = toBinary(
      ErrorDetailSchema,
      create(ErrorDetailSchema, { code: ErrorCode.INVALID_RESOURCE }),
    );
    expect(errorDetailFromError(wireError(bytes))?.retryAfterSeconds).toBeUndefined();
  });

  it("derives the category from the code when the sender left it unspecified", () => {
    const bytes = toBinary(
      ErrorDetailSchema,
      create(ErrorDetailSchema, { code: ErrorCode.MISSING_API_KEY }),
    );
    expect(errorDetailFromError(wireError(bytes))?.category).toBe(ErrorCategory.CONFIGURATION);
  });

  it("returns the first ErrorDetail when several are attached", () => {
    const first = toBinary(
      ErrorDetailSchema,
      create(ErrorDetailSchema, { code: ErrorCode.NETWORK_TIMEOUT }),
    );
    const second = toBinary(
      ErrorDetailSchema,
      create(ErrorDetailSchema, { code: ErrorCode.DATA_CORRUPTION }),
    );
    expect(errorDetailFromError(wireError(first, second))?.code).toBe(ErrorCode.NETWORK_TIMEOUT);
  });

  it("skips details of other types", () => {
    const error = receivedError(Code.Internal, [
      { type: "google.rpc.RetryInfo", value: new Uint8Array([8, 1]) },
    ]);
    expect(errorDetailFromError(error)).toBeUndefined();
  });

  it("returns undefined for detail bytes that do not decode", () => {
    expect(errorDetailFromError(wireError(new Uint8Array([0xff, 0xff, 0xff, 0x0f])))).toBe(
      undefined,
    );
  });

  it("returns undefined for a ConnectError whose details were replaced by garbage", () => {
    const error = new ConnectError("x", Code.Internal);
    (error as { details: unknown }).details = "garbage";
    expect(errorDetailFromError(error)).toBeUndefined();
  });

  it("returns undefined for a ConnectError without details", () => {
    expect(errorDetailFromError(new ConnectError("x", Code.Unavailable))).toBeUndefined();
  });

  it("returns undefined for values that are not ConnectErrors", () => {
    for (const value of [undefined, null, "unavailable", 14, new Error("boom"), {}]) {
      expect(errorDetailFromError(value)).toBeUndefined();
    }
  });
});

describe("errorCategoryFromCode", () => {
  it("maps codes 1-5 to transient, 6-11 to permanent and 12-16 to configuration", () => {
    const categories = Array.from({ length: 18 }, (_, code) =>
      errorCategoryFromCode(code as ErrorCode),
    );
    expect(categories).toEqual([
      ErrorCategory.UNSPECIFIED,
      ...Array(5).fill(ErrorCategory.TRANSIENT),
      ...Array(6).fill(ErrorCategory.PERMANENT),
      ...Array(5).fill(ErrorCategory.CONFIGURATION),
      ErrorCategory.UNSPECIFIED,
    ]);
  });
});
