import { ErrorCode } from "@costplugin/proto";

/** What went wrong talking to the vendor. */
export type VendorErrorKind =
  | "bad_request"
  | "not_found"
  | "unauthorized"
  | "forbidden"
  | "rate_limited"
  | "rate_limit_too_long"
  | "unavailable"
  | "timeout"
  | "network"
  | "truncated"
  | "invalid_response"
  | "circuit_open";

const transientKinds = new Set<VendorErrorKind>([
  "rate_limited",
  "unavailable",
  "timeout",
  "network",
  "truncated",
]);

/** Remediation for a 401, shown by `pull` and `validate-token`. */
export const unauthorizedMessage =
  "the vendor rejected the API token (HTTP 401): it is missing, expired, revoked or unknown. Check that the configured token is the current one (tokens are created in the vendor console under API token settings and shown only once), then run `costplugin-billing validate-token`";

/** Remediation for a 403, shown by `pull` and `validate-token`. */
export const forbiddenMessage =
  "the vendor refused access (HTTP 403): the token lacks permission, the cost report token has no access to the configured report, or the workspace token has no cost access. Grant read-only cost access, or use the cost report token from the report's API access";

/** Options of `VendorError`. */
export interface VendorErrorOptions {
  /** The HTTP status, when there was a response. */
  readonly status?: number;
  /** How long the vendor asked us to wait (429). */
  readonly retryAfterMs?: number;
  /** The underlying failure. */
  readonly cause?: unknown;
}

/** A failure of the vendor API, classified once at the HTTP boundary. */
export class VendorError extends Error {
  override readonly name = "VendorError";
  /** The classification. */
  readonly kind: VendorErrorKind;
  /** HTTP status, when there was one. */
  readonly status: number | undefined;
  /** Requested wait before the next attempt (rate limits). */
  readonly retryAfterMs: number | undefined;

  constructor(kind: VendorErrorKind, message: string, options: VendorErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }

  /** True when trying again may succeed (5xx, timeouts, 429, broken bodies). */
  get transient(): boolean {
    return transientKinds.has(this.kind);
  }

  /** True for failures that say the vendor is down (these feed the circuit breaker; 429 does not). */
  get vendorDown(): boolean {
    return this.kind === "unavailable" || this.kind === "timeout" || this.kind === "network";
  }
}

/** The protocol ErrorCode of a vendor failure: the one mapping from vendor HTTP to the protocol. */
export function errorCodeFromVendorError(error: VendorError): ErrorCode {
  switch (error.kind) {
    case "bad_request":
      return ErrorCode.INVALID_RESOURCE;
    case "not_found":
      return ErrorCode.RESOURCE_NOT_FOUND;
    case "unauthorized":
      return ErrorCode.INVALID_CREDENTIALS;
    case "forbidden":
      return ErrorCode.PERMISSION_DENIED;
    case "rate_limited":
    case "rate_limit_too_long":
      return ErrorCode.RATE_LIMITED;
    case "unavailable":
      return ErrorCode.SERVICE_UNAVAILABLE;
    case "timeout":
      return ErrorCode.NETWORK_TIMEOUT;
    case "network":
      return ErrorCode.TEMPORARY_FAILURE;
    case "truncated":
    case "invalid_response":
      return ErrorCode.DATA_CORRUPTION;
    case "circuit_open":
      return ErrorCode.CIRCUIT_OPEN;
  }
}
