import { Code } from "@connectrpc/connect";
import { codeToString } from "@connectrpc/connect/protocol-connect";

/** The `code` label of an RPC that succeeded. */
export const okCodeLabel = "ok";

/** The `code` metric label of a Connect code, in Connect's snake_case (`invalid_argument`). */
export function codeLabel(code: Code | undefined): string {
  return code === undefined ? okCodeLabel : codeToString(code);
}

/**
 * Codes that count against availability: failures of the server, not of the caller. Invalid
 * input, not found, permission and precondition errors are the caller's; `resource_exhausted`
 * tells the caller to slow down; `canceled` means the caller left.
 */
const serverFaults: ReadonlySet<Code> = new Set([
  Code.Internal,
  Code.Unavailable,
  Code.DataLoss,
  Code.Unknown,
  Code.DeadlineExceeded,
]);

/** Whether an RPC that ended with `code` (undefined: ok) is a server fault. */
export function isServerFault(code: Code | undefined): boolean {
  return code !== undefined && serverFaults.has(code);
}
