import { Code, ConnectError } from "@connectrpc/connect";
import { connectErrorWithDetail, errorDetailFromConnectError } from "./error-detail.js";
import type { PluginLogger } from "./logger.js";
import { connectErrorFromPluginError, PluginError } from "./plugin-error.js";

/** Where a failure happened, for the server-side log line. */
export interface FailureSite {
  /** Fully-qualified service name, e.g. `costplugin.v1.CostSourceService`. */
  readonly service: string;
  /** Method name, e.g. `GetProjectedCost`. */
  readonly method: string;
  /** The handler context's signal: once aborted, its reason decides the code. */
  readonly signal: AbortSignal;
  /** Where unexpected failures are logged with their stack. */
  readonly logger: PluginLogger;
}

/**
 * Maps whatever a plugin method threw to the ConnectError the caller sees; the one boundary where
 * foreign failures become protocol errors.
 *
 * - A `PluginError` becomes its mapped code with one ErrorDetail.
 * - Once the request was aborted (deadline, caller gone, shutdown), the abort reason wins: a
 *   `fetch` or timer rejected by the aborted signal must not look like a server fault.
 * - A ConnectError that already carries a costplugin.v1 ErrorDetail (a proxied plugin's answer)
 *   passes through unchanged.
 * - Anything else is `internal` with the message "internal error"; the original is logged with
 *   its stack and never reaches the caller.
 */
export function connectErrorFromUnknown(error: unknown, site: FailureSite): ConnectError {
  if (error instanceof PluginError) return connectErrorFromPluginError(error);
  if (site.signal.aborted) return connectErrorFromAbortReason(site.signal.reason);
  if (error instanceof ConnectError && errorDetailFromConnectError(error) !== undefined) {
    return error;
  }
  site.logger.error(
    { err: error, service: site.service, method: site.method },
    "plugin method failed unexpectedly",
  );
  return internalError();
}

/** The `internal` error the caller sees for any unexpected failure. */
export function internalError(): ConnectError {
  return connectErrorWithDetail({ connectCode: Code.Internal, message: "internal error" });
}

/**
 * The error for an aborted request: deadline_exceeded for a deadline or timeout, the reason's
 * own code for a ConnectError (shutdown uses unavailable), canceled for anything else.
 * Always with an ErrorDetail (ERROR_CODE_UNSPECIFIED).
 */
export function connectErrorFromAbortReason(reason: unknown): ConnectError {
  if (reason instanceof ConnectError) {
    return connectErrorWithDetail({ connectCode: reason.code, message: reason.rawMessage });
  }
  if (reason instanceof Error && reason.name === "TimeoutError") {
    return connectErrorWithDetail({
      connectCode: Code.DeadlineExceeded,
      message: "the request deadline was exceeded",
    });
  }
  return connectErrorWithDetail({
    connectCode: Code.Canceled,
    message: "the request was canceled",
  });
}

/**
 * Runs a handler body inside the boundary: whatever it throws leaves as the ConnectError of
 * `connectErrorFromUnknown`.
 */
export async function runGuarded<T>(site: FailureSite, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw connectErrorFromUnknown(error, site);
  }
}

/** The `unimplemented` error for a method the plugin does not offer. */
export function unimplementedError(method: string, pluginName: string): ConnectError {
  return connectErrorWithDetail({
    connectCode: Code.Unimplemented,
    message: `${method} is not offered by plugin ${JSON.stringify(pluginName)}`,
  });
}

/** An `invalid_argument` error without a more specific ErrorCode, naming `field`. */
export function invalidArgumentError(field: string, message: string): ConnectError {
  return connectErrorWithDetail({
    connectCode: Code.InvalidArgument,
    message,
    details: { field },
  });
}
