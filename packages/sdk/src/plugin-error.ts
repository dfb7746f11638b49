import type { ConnectError } from "@connectrpc/connect";
import { Code } from "@connectrpc/connect";
import { ErrorCategory, ErrorCode } from "@costplugin/proto";
import { connectErrorWithDetail } from "./error-detail.js";

/** Options of a `PluginError`. */
export interface PluginErrorOptions {
  /**
   * Seconds the caller should wait before retrying (rate limits, maintenance). Rounded up to a
   * whole second and clamped to the int32 range; a negative or non-finite value is dropped.
   */
  readonly retryAfterSeconds?: number;
  /** Machine-readable context, e.g. `{ region: "mars-1" }`. Never put secrets here. */
  readonly details?: Readonly<Record<string, string>>;
  /** The underlying failure; logged on the server, never sent to the caller. */
  readonly cause?: unknown;
}

/**
 * The error a plugin throws to report a failure with a protocol ErrorCode. The SDK turns it
 * into the Connect/gRPC code of the protocol and attaches one `costplugin.v1.ErrorDetail`.
 * Its message is sent to the caller as written: keep secrets and upstream responses out of it.
 */
export class PluginError extends Error {
  override readonly name = "PluginError";
  /** The protocol error code. */
  readonly code: ErrorCode;
  /** Category derived from the code: callers never set both. */
  readonly category: ErrorCategory;
  /** See `PluginErrorOptions.retryAfterSeconds`. */
  readonly retryAfterSeconds: number | undefined;
  /** See `PluginErrorOptions.details`. */
  readonly details: Readonly<Record<string, string>>;

  constructor(code: ErrorCode, message: string, options: PluginErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.category = categoryFromErrorCode(code);
    this.retryAfterSeconds = normalizeRetryAfter(options.retryAfterSeconds);
    this.details = options.details ?? {};
  }
}

const maxInt32 = 2_147_483_647;

function normalizeRetryAfter(seconds: number | undefined): number | undefined {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return undefined;
  return Math.min(Math.ceil(seconds), maxInt32);
}

/** The category of an error code: 1-5 transient, 6-11 permanent, 12-16 configuration. */
export function categoryFromErrorCode(code: ErrorCode): ErrorCategory {
  if (code >= ErrorCode.NETWORK_TIMEOUT && code <= ErrorCode.CIRCUIT_OPEN) {
    return ErrorCategory.TRANSIENT;
  }
  if (code >= ErrorCode.INVALID_RESOURCE && code <= ErrorCode.DATA_CORRUPTION) {
    return ErrorCategory.PERMANENT;
  }
  if (code >= ErrorCode.INVALID_CREDENTIALS && code <= ErrorCode.PLUGIN_NOT_CONFIGURED) {
    return ErrorCategory.CONFIGURATION;
  }
  return ErrorCategory.UNSPECIFIED;
}

const connectCodes: Readonly<Record<ErrorCode, Code>> = {
  [ErrorCode.UNSPECIFIED]: Code.Internal,
  [ErrorCode.NETWORK_TIMEOUT]: Code.Unavailable,
  [ErrorCode.SERVICE_UNAVAILABLE]: Code.Unavailable,
  [ErrorCode.RATE_LIMITED]: Code.ResourceExhausted,
  [ErrorCode.TEMPORARY_FAILURE]: Code.Unavailable,
  [ErrorCode.CIRCUIT_OPEN]: Code.Unavailable,
  [ErrorCode.INVALID_RESOURCE]: Code.InvalidArgument,
  [ErrorCode.RESOURCE_NOT_FOUND]: Code.NotFound,
  [ErrorCode.INVALID_TIME_RANGE]: Code.InvalidArgument,
  [ErrorCode.UNSUPPORTED_REGION]: Code.Unimplemented,
  [ErrorCode.PERMISSION_DENIED]: Code.PermissionDenied,
  [ErrorCode.DATA_CORRUPTION]: Code.DataLoss,
  [ErrorCode.INVALID_CREDENTIALS]: Code.PermissionDenied,
  [ErrorCode.MISSING_API_KEY]: Code.FailedPrecondition,
  [ErrorCode.INVALID_ENDPOINT]: Code.FailedPrecondition,
  [ErrorCode.INVALID_PROVIDER]: Code.Unimplemented,
  [ErrorCode.PLUGIN_NOT_CONFIGURED]: Code.FailedPrecondition,
};

/** The Connect/gRPC code that carries an ErrorCode (the public SDK's mapping, kept for hosts). */
export function connectCodeFromErrorCode(code: ErrorCode): Code {
  return connectCodes[code] ?? Code.Internal;
}

/** A ConnectError carrying the PluginError's code and one ErrorDetail in its details. */
export function connectErrorFromPluginError(error: PluginError): ConnectError {
  return connectErrorWithDetail({
    connectCode: connectCodeFromErrorCode(error.code),
    message: error.message,
    errorCode: error.code,
    category: error.category,
    details: error.details,
    retryAfterSeconds: error.retryAfterSeconds,
  });
}
