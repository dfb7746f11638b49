import { create } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import type { Code } from "@connectrpc/connect";
import { ConnectError } from "@connectrpc/connect";
import type { ErrorDetail } from "@costplugin/proto";
import { ErrorCategory, ErrorCode, ErrorDetailSchema } from "@costplugin/proto";

/** What `connectErrorWithDetail` needs to build a ConnectError carrying one ErrorDetail. */
export interface ErrorDetailInit {
  /** The Connect/gRPC status code the caller sees. */
  readonly connectCode: Code;
  /** The message the caller sees, also copied into the ErrorDetail. Never put secrets here. */
  readonly message: string;
  /** The protocol ErrorCode. Default: ERROR_CODE_UNSPECIFIED (errors of the SDK itself). */
  readonly errorCode?: ErrorCode;
  /**
   * The category. Default: derived from `errorCode` by the caller (`PluginError` does it);
   * ERROR_CATEGORY_UNSPECIFIED for ERROR_CODE_UNSPECIFIED.
   */
  readonly category?: ErrorCategory;
  /** Machine-readable context, e.g. `{ field: "resource.provider" }`. */
  readonly details?: Readonly<Record<string, string>>;
  /** Seconds the caller should wait before retrying. */
  readonly retryAfterSeconds?: number;
}

/**
 * A ConnectError with exactly one `costplugin.v1.ErrorDetail` in its details: the single way the
 * SDK builds the errors it sends, so every error a caller sees can be decoded the same way on
 * gRPC (`grpc-status-details-bin`), gRPC-web and Connect (`details` of the JSON body).
 */
export function connectErrorWithDetail(init: ErrorDetailInit): ConnectError {
  const detail: ErrorDetail = create(ErrorDetailSchema, {
    code: init.errorCode ?? ErrorCode.UNSPECIFIED,
    category: init.category ?? ErrorCategory.UNSPECIFIED,
    message: init.message,
    details: { ...init.details },
    retryAfterSeconds: init.retryAfterSeconds,
    timestamp: timestampNow(),
  });
  return new ConnectError(init.message, init.connectCode, undefined, [
    { desc: ErrorDetailSchema, value: detail },
  ]);
}

/** The costplugin.v1 ErrorDetail carried by a ConnectError, if it has one. */
export function errorDetailFromConnectError(error: ConnectError): ErrorDetail | undefined {
  return error.findDetails(ErrorDetailSchema)[0];
}
