import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorCategory, ErrorCode, ErrorDetailSchema } from "@costplugin/proto";
import { describe, expect, it } from "vitest";
import { connectCodeName, explainError, isNotOffered } from "../src/error-explanation.js";

const withDetail = (code: Code, errorCode: ErrorCode, retryAfterSeconds?: number) =>
  new ConnectError("upstream says slow down", code, undefined, [
    {
      desc: ErrorDetailSchema,
      value: create(ErrorDetailSchema, {
        code: errorCode,
        category: ErrorCategory.TRANSIENT,
        message: "upstream says slow down",
        retryAfterSeconds,
        details: { upstream: "vendor" },
      }),
    },
  ]);

describe("connectCodeName", () => {
  it("spells codes as they travel on the wire", () => {
    expect(connectCodeName(Code.InvalidArgument)).toBe("invalid_argument");
    expect(connectCodeName(Code.ResourceExhausted)).toBe("resource_exhausted");
    expect(connectCodeName(Code.Unavailable)).toBe("unavailable");
  });
});

describe("explainError", () => {
  it("decodes the ErrorDetail and advises to wait the retry-after", () => {
    const explained = explainError(
      withDetail(Code.ResourceExhausted, ErrorCode.RATE_LIMITED, 30),
      "http://x",
    );
    expect(explained.connectCode).toBe("resource_exhausted");
    expect(explained.detail).toEqual({
      code: "ERROR_CODE_RATE_LIMITED",
      category: "ERROR_CATEGORY_TRANSIENT",
      message: "upstream says slow down",
      retryAfterSeconds: 30,
      details: { upstream: "vendor" },
    });
    expect(explained.advice).toMatch(/try again in 30 s/);
  });

  it("says retrying will not help for a permanent error", () => {
    const error = new ConnectError("bad region", Code.Unimplemented, undefined, [
      {
        desc: ErrorDetailSchema,
        value: create(ErrorDetailSchema, {
          code: ErrorCode.UNSUPPORTED_REGION,
          category: ErrorCategory.PERMANENT,
        }),
      },
    ]);
    expect(explainError(error, "http://x").advice).toMatch(
      /^Retrying will not help\. Pick a region/,
    );
  });

  it("points at the URL and CORS when the plugin cannot be reached", () => {
    const explained = explainError(new TypeError("Failed to fetch"), "http://127.0.0.1:1");
    expect(explained.detail).toBeUndefined();
    expect(explained.advice).toContain("could not reach http://127.0.0.1:1");
    expect(explained.advice).toContain("CORS");
  });

  it("never shows [object Object] for a thrown non-error", () => {
    const explained = explainError({ some: "object" }, "http://x");
    expect(explained.message).not.toContain("[object Object]");
    expect(explained.connectCode).toBe("unknown");
  });
});

describe("isNotOffered", () => {
  const unspecified = new ConnectError(
    "GetPricingSpec is not offered",
    Code.Unimplemented,
    undefined,
    [
      {
        desc: ErrorDetailSchema,
        value: create(ErrorDetailSchema, { code: ErrorCode.UNSPECIFIED }),
      },
    ],
  );

  it("reads unimplemented without a named ErrorCode as a method the plugin does not offer", () => {
    expect(isNotOffered(new ConnectError("not here", Code.Unimplemented))).toBe(true);
    expect(isNotOffered(unspecified)).toBe(true);
  });

  it("reads a named ErrorCode or another status as a real failure", () => {
    expect(isNotOffered(withDetail(Code.Unimplemented, ErrorCode.UNSUPPORTED_REGION))).toBe(false);
    expect(isNotOffered(new ConnectError("gone", Code.NotFound))).toBe(false);
    expect(isNotOffered(new Error("network"))).toBe(false);
  });
});
