import { randomUUID } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/**
 * An incoming `x-request-id` is kept when it is 1-128 characters of letters, digits and
 * `._:-`: enough for UUIDs, ULIDs and trace ids, too little to smuggle anything into a log line
 * or a header.
 */
const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;

/** W3C Trace Context `traceparent`: version, trace id, parent id, flags (lowercase hex). */
const traceparentPattern = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The `traceparent` header when it is valid W3C Trace Context, otherwise undefined. */
export function traceparentFromHeaders(headers: IncomingHttpHeaders): string | undefined {
  const value = single(headers.traceparent);
  const match = value === undefined ? null : traceparentPattern.exec(value);
  if (!match) return undefined;
  const [, version, traceId, parentId] = match;
  if (version === "ff" || /^0+$/.test(traceId ?? "") || /^0+$/.test(parentId ?? "")) {
    return undefined;
  }
  return value;
}

/**
 * The id of a request: a valid incoming `x-request-id`, else the trace id of a valid
 * `traceparent`, else a new random UUID.
 */
export function requestIdFromHeaders(headers: IncomingHttpHeaders): string {
  const incoming = single(headers["x-request-id"]);
  if (incoming !== undefined && requestIdPattern.test(incoming)) return incoming;
  const traceparent = traceparentFromHeaders(headers);
  if (traceparent !== undefined) return traceparent.slice(3, 35);
  return randomUUID();
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
