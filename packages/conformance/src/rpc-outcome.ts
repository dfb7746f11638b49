import { Code, ConnectError } from "@connectrpc/connect";
import { errorDetailFromError } from "@costplugin/client";
import type { ErrorDetail } from "@costplugin/proto";
import { ErrorCategory, ErrorCode, ErrorDetailSchema } from "@costplugin/proto";
import { codeName } from "./wire-format.js";

/** The result of an RPC: its answer, or the error it failed with. */
export type RpcOutcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: ConnectError };

/** Runs a call and captures its answer or its error; never throws. */
export async function attempt<T>(call: () => Promise<T>): Promise<RpcOutcome<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    return { ok: false, error: ConnectError.from(error) };
  }
}

/**
 * The ErrorDetail a failure carries, decoded the way every costplugin client decodes it, and
 * the category exactly as sent (the client fills in a missing category; the kit must not).
 */
export interface DecodedErrorDetail {
  readonly detail: ErrorDetail;
  readonly sentCategory: ErrorCategory;
}

/** Decodes the costplugin.v1 ErrorDetail of a failure, if it carries one. */
export function decodeErrorDetail(error: ConnectError): DecodedErrorDetail | undefined {
  const detail = errorDetailFromError(error);
  if (detail === undefined) return undefined;
  let sentCategory = detail.category;
  try {
    sentCategory = error.findDetails(ErrorDetailSchema)[0]?.category ?? sentCategory;
  } catch {
    // The client already decoded it; a second decoding cannot fail differently.
  }
  return { detail, sentCategory };
}

/**
 * Whether a failure says "this method is not offered": `unimplemented` without an ErrorDetail,
 * or with one that names no ErrorCode (ERROR_CODE_UNSPECIFIED: a framework that attaches an
 * ErrorDetail to every failure, as this repository's SDK does, has no code for "not offered").
 * UNSUPPORTED_REGION and INVALID_PROVIDER also travel as `unimplemented`, but they name their
 * code: they are the plugin's reports, and so is any other code sent with `unimplemented`.
 */
export function isNotOffered(error: ConnectError): boolean {
  if (error.code !== Code.Unimplemented) return false;
  const decoded = decodeErrorDetail(error);
  return decoded === undefined || decoded.detail.code === ErrorCode.UNSPECIFIED;
}

/** A one-line description of a failure for reports: code, message and ErrorDetail. */
export function describeError(error: ConnectError): string {
  const decoded = decodeErrorDetail(error);
  const detail = decoded
    ? ` [ErrorDetail ${ErrorCode[decoded.detail.code] ?? decoded.detail.code}/${ErrorCategory[decoded.sentCategory] ?? decoded.sentCategory}]`
    : " [no ErrorDetail]";
  return `${codeName(error.code)}: ${error.rawMessage || "(no message)"}${detail}`;
}

/** Describes any outcome in one line. */
export function describeOutcome(outcome: RpcOutcome<unknown>): string {
  return outcome.ok ? "a successful answer" : describeError(outcome.error);
}
