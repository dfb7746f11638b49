import { Code } from "@connectrpc/connect";
import { ErrorCategory, ErrorCode } from "@costplugin/proto";

// The kit keeps its own copy of the protocol's tables (protocol-notes, "How an error travels")
// rather than importing the SDK's: it judges plugins, including the SDK, against the spec.

/** The category the protocol assigns to an ErrorCode: 1-5 transient, 6-11 permanent, 12-16 configuration. */
export function expectedCategory(code: ErrorCode): ErrorCategory {
  if (code >= 1 && code <= 5) return ErrorCategory.TRANSIENT;
  if (code >= 6 && code <= 11) return ErrorCategory.PERMANENT;
  if (code >= 12 && code <= 16) return ErrorCategory.CONFIGURATION;
  return ErrorCategory.UNSPECIFIED;
}

const statusCodes: Readonly<Partial<Record<ErrorCode, Code>>> = {
  [ErrorCode.NETWORK_TIMEOUT]: Code.Unavailable,
  [ErrorCode.SERVICE_UNAVAILABLE]: Code.Unavailable,
  [ErrorCode.TEMPORARY_FAILURE]: Code.Unavailable,
  [ErrorCode.CIRCUIT_OPEN]: Code.Unavailable,
  [ErrorCode.RATE_LIMITED]: Code.ResourceExhausted,
  [ErrorCode.INVALID_RESOURCE]: Code.InvalidArgument,
  [ErrorCode.INVALID_TIME_RANGE]: Code.InvalidArgument,
  [ErrorCode.RESOURCE_NOT_FOUND]: Code.NotFound,
  [ErrorCode.UNSUPPORTED_REGION]: Code.Unimplemented,
  [ErrorCode.INVALID_PROVIDER]: Code.Unimplemented,
  [ErrorCode.PERMISSION_DENIED]: Code.PermissionDenied,
  [ErrorCode.INVALID_CREDENTIALS]: Code.PermissionDenied,
  [ErrorCode.DATA_CORRUPTION]: Code.DataLoss,
  [ErrorCode.MISSING_API_KEY]: Code.FailedPrecondition,
  [ErrorCode.INVALID_ENDPOINT]: Code.FailedPrecondition,
  [ErrorCode.PLUGIN_NOT_CONFIGURED]: Code.FailedPrecondition,
};

/** The Connect/gRPC status code that carries an ErrorCode; `undefined` for UNSPECIFIED. */
export function expectedStatusCode(code: ErrorCode): Code | undefined {
  return statusCodes[code];
}
