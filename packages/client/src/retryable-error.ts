import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorCategory } from "@costplugin/proto";
import { errorCategoryFromError } from "./error-detail.js";

/**
 * Whether a failed call may succeed if made again later.
 *
 * - When the error carries a costplugin.v1 ErrorDetail with a category (given, or derived from
 *   its code), the category decides: only
 *   TRANSIENT (NETWORK_TIMEOUT, SERVICE_UNAVAILABLE, RATE_LIMITED, TEMPORARY_FAILURE,
 *   CIRCUIT_OPEN) is retryable; PERMANENT and CONFIGURATION errors never are, whatever the
 *   status code says.
 * - Without such a detail (none, or one with neither code nor category, which is how a plugin's
 *   unexpected failure arrives) the status code decides: the failure did not come from a plugin but from the way there (network,
 *   proxy, load balancer, server shutdown, deadline): `unavailable` and `deadline_exceeded` are
 *   retryable. `resource_exhausted` without a detail is NOT: on this protocol plugins always
 *   report rate limits as RATE_LIMITED, so a bare `resource_exhausted` means a size limit was
 *   hit (the server's request limit or the client's receive limit), and the same request fails
 *   the same way again. Proxies that rate-limit answer HTTP 429, which Connect and gRPC-web map
 *   to `unavailable`.
 * - Anything else (other codes, errors that are not ConnectErrors) is not retryable.
 *
 * A `deadline_exceeded` is retryable for a new call with a fresh deadline; the client's own
 * retry loop never retries past the call's deadline.
 */
export function isRetryableError(error: unknown): boolean {
  if (!(error instanceof ConnectError)) return false;
  const category = errorCategoryFromError(error);
  if (category !== undefined) return category === ErrorCategory.TRANSIENT;
  return error.code === Code.Unavailable || error.code === Code.DeadlineExceeded;
}
