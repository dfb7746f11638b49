import { Code, ConnectError } from "@connectrpc/connect";
import { errorDetailFromError } from "@costplugin/client";
import { ErrorCategory, ErrorCategorySchema, ErrorCode, ErrorCodeSchema } from "@costplugin/proto";

/** The decoded costplugin.v1 ErrorDetail in the words a person reads. */
export interface ExplainedDetail {
  /** Full enum name, e.g. ERROR_CODE_RATE_LIMITED. */
  readonly code: string;
  /** Full enum name, e.g. ERROR_CATEGORY_TRANSIENT. */
  readonly category: string;
  readonly message: string;
  readonly retryAfterSeconds: number | undefined;
  readonly details: Readonly<Record<string, string>>;
}

/** A failed call explained: the Connect code, the ErrorDetail when sent, and what to do next. */
export interface ErrorExplanation {
  /** The Connect code in its wire spelling, e.g. `resource_exhausted`. */
  readonly connectCode: string;
  /** The error message without the `[code]` prefix Connect adds. */
  readonly message: string;
  readonly detail: ExplainedDetail | undefined;
  /** One or two sentences saying what to do about it. */
  readonly advice: string;
}

/** The wire spelling of a Connect code: `InvalidArgument` becomes `invalid_argument`. */
export function connectCodeName(code: Code): string {
  return (Code[code] ?? "unknown")
    .replace(/[a-z][A-Z]/g, (pair) => `${pair[0]}_${pair[1]}`)
    .toLowerCase();
}

/**
 * Explains any error a call produced. Never returns a stack or "[object Object]": unknown values
 * become `unknown` with a generic message.
 */
export function explainError(error: unknown, baseUrl: string): ErrorExplanation {
  const connectError = ConnectError.from(error);
  const decoded = errorDetailFromError(error);
  const detail: ExplainedDetail | undefined = decoded && {
    code: ErrorCodeSchema.value[decoded.code]?.name ?? `ERROR_CODE_${decoded.code}`,
    category:
      ErrorCategorySchema.value[decoded.category]?.name ?? `ERROR_CATEGORY_${decoded.category}`,
    message: decoded.message,
    retryAfterSeconds: decoded.retryAfterSeconds,
    details: decoded.details,
  };
  // ConnectError.from stringifies non-errors ("[object Object]"): say what happened instead.
  const message =
    error instanceof Error
      ? connectError.rawMessage || "the call failed without a message"
      : "the call failed with a value that is not an error";
  return {
    connectCode: connectCodeName(connectError.code),
    message,
    detail,
    // An ErrorDetail without a code (e.g. unimplemented) says nothing the Connect code does not.
    advice:
      decoded && decoded.code !== ErrorCode.UNSPECIFIED
        ? adviceFromDetail(decoded.code, decoded.category, decoded.retryAfterSeconds)
        : adviceFromCode(connectError.code, message, baseUrl),
  };
}

/**
 * Whether a failure means "the plugin does not offer this method": `unimplemented` with no
 * ErrorDetail, or with one that names no ErrorCode (the SDK sends one on every failure).
 * UNSUPPORTED_REGION and INVALID_PROVIDER also travel as `unimplemented`, naming their code.
 */
export function isNotOffered(error: unknown): boolean {
  if (ConnectError.from(error).code !== Code.Unimplemented) return false;
  const decoded = errorDetailFromError(error);
  return decoded === undefined || decoded.code === ErrorCode.UNSPECIFIED;
}

function adviceFromDetail(
  code: ErrorCode,
  category: ErrorCategory,
  retryAfterSeconds: number | undefined,
): string {
  const specific = codeAdvice[code];
  switch (category) {
    case ErrorCategory.TRANSIENT:
      return retryAfterSeconds !== undefined
        ? `Temporary: try again in ${retryAfterSeconds} s. ${specific}`
        : `Temporary: try again shortly (clients retry with backoff). ${specific}`;
    case ErrorCategory.PERMANENT:
      return `Retrying will not help. ${specific}`;
    case ErrorCategory.CONFIGURATION:
      return `The plugin's configuration needs a fix by whoever runs it. ${specific}`;
    default:
      return specific;
  }
}

const codeAdvice: Readonly<Record<ErrorCode, string>> = {
  [ErrorCode.UNSPECIFIED]: "Check the plugin's logs for the cause.",
  [ErrorCode.NETWORK_TIMEOUT]: "The plugin's upstream did not answer in time.",
  [ErrorCode.SERVICE_UNAVAILABLE]: "The plugin or its upstream is unavailable.",
  [ErrorCode.RATE_LIMITED]: "The plugin or its upstream is rate limiting; slow down.",
  [ErrorCode.TEMPORARY_FAILURE]: "A temporary failure in the plugin.",
  [ErrorCode.CIRCUIT_OPEN]: "The plugin stopped calling a failing upstream for a while.",
  [ErrorCode.INVALID_RESOURCE]:
    "Check provider, resource type, SKU and region (or the resource id).",
  [ErrorCode.RESOURCE_NOT_FOUND]: "Check the resource id or pick a resource the plugin knows.",
  [ErrorCode.INVALID_TIME_RANGE]: "Pick a start before the end, within the span the plugin allows.",
  [ErrorCode.UNSUPPORTED_REGION]: "Pick a region the plugin covers (Supports names them).",
  [ErrorCode.PERMISSION_DENIED]: "The plugin's credentials may not read this data.",
  [ErrorCode.DATA_CORRUPTION]: "The plugin's data is damaged: tell whoever runs it.",
  [ErrorCode.INVALID_CREDENTIALS]: "Its credentials were rejected upstream.",
  [ErrorCode.MISSING_API_KEY]: "It has no API key configured.",
  [ErrorCode.INVALID_ENDPOINT]: "Its upstream endpoint is wrong.",
  [ErrorCode.INVALID_PROVIDER]: "It does not serve this provider: try another provider or plugin.",
  [ErrorCode.PLUGIN_NOT_CONFIGURED]: "It is not configured for this.",
};

function adviceFromCode(code: Code, message: string, baseUrl: string): string {
  switch (code) {
    case Code.Unavailable:
    case Code.Unknown:
      if (/fetch|network|load failed/i.test(message)) {
        return `The page could not reach ${baseUrl}. Check that the plugin runs there and, when it is on another origin, that its CORS settings allow ${globalThis.location?.origin ?? "this page's origin"}.`;
      }
      return code === Code.Unavailable
        ? "The plugin is unavailable: try again shortly."
        : "The plugin answered with something that is not a valid response: check the URL points at a plugin, and the protocol.";
    case Code.Unimplemented:
      return "The plugin does not offer this method (or this protocol at this URL).";
    case Code.DeadlineExceeded:
      return "The plugin did not answer in time: try again, or check its upstream.";
    case Code.Canceled:
      return "The call was cancelled.";
    case Code.InvalidArgument:
      return "The request was rejected: check the fields.";
    case Code.ResourceExhausted:
      return "Too many requests or a request too large: slow down or send less.";
    case Code.Internal:
      return "The plugin failed unexpectedly: its logs have the cause.";
    default:
      return "See the plugin's documentation for this code.";
  }
}
