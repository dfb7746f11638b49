import type { Code } from "@connectrpc/connect";
import { ErrorCode } from "@costplugin/proto";
import type { CheckVerdict } from "../check-result.js";
import { fail, notApplicable, pass } from "../check-result.js";
import type { RpcOutcome } from "../rpc-outcome.js";
import { decodeErrorDetail, describeError, isNotOffered } from "../rpc-outcome.js";
import { codeName } from "../wire-format.js";

/** What a request the plugin must refuse should fail with. */
export interface ExpectedRejection {
  /** The Connect/gRPC status code. */
  readonly code: Code;
  /** The ErrorDetail code, checked when a detail is sent. */
  readonly detail: ErrorCode;
  /** The RPC name, for the not-applicable reason. */
  readonly method: string;
  /**
   * Whether the method answered another call in this session. If not, a plain `unimplemented`
   * means the method is not offered (not applicable) rather than a wrong rejection.
   */
  readonly methodAnswered: boolean;
}

/**
 * Judges the failure of a request that must be refused. A missing ErrorDetail does not fail
 * this verdict: that is `errors.detail-present`'s finding, so each fault fails one check.
 */
export function rejectionVerdict(
  outcome: RpcOutcome<unknown>,
  expected: ExpectedRejection,
): CheckVerdict {
  const expectation = `${codeName(expected.code)} with ErrorDetail ${ErrorCode[expected.detail]}`;
  if (outcome.ok) return fail(expectation, "a successful answer");
  if (!expected.methodAnswered && isNotOffered(outcome.error)) {
    return notApplicable(`the plugin does not offer ${expected.method}`);
  }
  if (outcome.error.code !== expected.code) return fail(expectation, describeError(outcome.error));
  const decoded = decodeErrorDetail(outcome.error);
  if (decoded && decoded.detail.code !== expected.detail) {
    return fail(expectation, describeError(outcome.error));
  }
  return pass(decoded ? undefined : "no ErrorDetail (see errors.detail-present)");
}
