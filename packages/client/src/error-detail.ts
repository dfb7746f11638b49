import { ConnectError } from "@connectrpc/connect";
import type { ErrorDetail } from "@costplugin/proto";
import { ErrorCategory, ErrorCode, ErrorDetailSchema } from "@costplugin/proto";

/**
 * The `costplugin.v1.ErrorDetail` carried by a failed call, or `undefined` when there is none.
 *
 * Works for errors of every protocol: Connect (the `details` array of the JSON error body),
 * gRPC and gRPC-web (`grpc-status-details-bin`), and for errors raised locally with outgoing
 * details (the circuit breaker's CIRCUIT_OPEN). When several ErrorDetails are attached the first
 * wins; a detail whose bytes do not decode is skipped. Anything that is not a ConnectError
 * (including `undefined`, strings and plain `Error`s) gives `undefined`.
 *
 * The returned detail always has a category: when the sender left it unspecified, it is derived
 * from the code (1-5 transient, 6-11 permanent, 12-16 configuration).
 */
export function errorDetailFromError(error: unknown): ErrorDetail | undefined {
  if (!(error instanceof ConnectError)) return undefined;
  let found: ErrorDetail | undefined;
  try {
    found = error.findDetails(ErrorDetailSchema)[0];
  } catch {
    // A detail list that is not an array, or holds values of the wrong shape, was not built
    // by a Connect client: treat it as carrying no detail rather than failing the caller.
    return undefined;
  }
  if (found === undefined) return undefined;
  if (found.category === ErrorCategory.UNSPECIFIED) {
    found.category = errorCategoryFromCode(found.code);
  }
  return found;
}

/**
 * The category of an ErrorCode as the protocol defines it: 1-5 transient, 6-11 permanent,
 * 12-16 configuration, anything else (0, unknown future values) unspecified.
 */
export function errorCategoryFromCode(code: ErrorCode): ErrorCategory {
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

/**
 * The category an error's ErrorDetail assigns (TRANSIENT, PERMANENT or CONFIGURATION), or
 * `undefined` when there is no detail or its category and code are both unspecified (as for a
 * plugin's unexpected failure, answered `internal`): the status code must decide then.
 */
export function errorCategoryFromError(error: unknown): ErrorCategory | undefined {
  const category = errorDetailFromError(error)?.category;
  return category === undefined || category === ErrorCategory.UNSPECIFIED ? undefined : category;
}
