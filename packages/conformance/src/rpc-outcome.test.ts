import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorCategory, ErrorCode, ErrorDetailSchema } from "@costplugin/proto";
import { describe, expect, it } from "vitest";
import { describeError, isNotOffered } from "./rpc-outcome.js";

function failure(code: Code, detail?: ErrorCode): ConnectError {
  const details =
    detail === undefined
      ? []
      : [{ desc: ErrorDetailSchema, value: create(ErrorDetailSchema, { code: detail }) }];
  return new ConnectError("failed", code, undefined, details);
}

describe("isNotOffered", () => {
  it("takes unimplemented without an ErrorDetail as a method the plugin does not offer", () => {
    expect(isNotOffered(failure(Code.Unimplemented))).toBe(true);
  });

  it("takes unimplemented with an ErrorDetail naming no code as not offered (the SDK's answer)", () => {
    expect(isNotOffered(failure(Code.Unimplemented, ErrorCode.UNSPECIFIED))).toBe(true);
  });

  it("takes unimplemented with a named ErrorCode as the plugin's report", () => {
    expect(isNotOffered(failure(Code.Unimplemented, ErrorCode.UNSUPPORTED_REGION))).toBe(false);
    expect(isNotOffered(failure(Code.Unimplemented, ErrorCode.INVALID_PROVIDER))).toBe(false);
    expect(isNotOffered(failure(Code.Unimplemented, ErrorCode.RESOURCE_NOT_FOUND))).toBe(false);
  });

  it("takes any other status as a failure, with or without an ErrorDetail", () => {
    expect(isNotOffered(failure(Code.NotFound))).toBe(false);
    expect(isNotOffered(failure(Code.FailedPrecondition, ErrorCode.UNSPECIFIED))).toBe(false);
  });
});

describe("describeError", () => {
  it("names the status, the message and the ErrorDetail's code and category as sent", () => {
    const error = new ConnectError("no such region", Code.Unimplemented, undefined, [
      {
        desc: ErrorDetailSchema,
        value: create(ErrorDetailSchema, {
          code: ErrorCode.UNSUPPORTED_REGION,
          category: ErrorCategory.PERMANENT,
        }),
      },
    ]);
    expect(describeError(error)).toBe(
      "unimplemented: no such region [ErrorDetail UNSUPPORTED_REGION/PERMANENT]",
    );
    expect(describeError(failure(Code.Internal))).toBe("internal: failed [no ErrorDetail]");
  });
});
