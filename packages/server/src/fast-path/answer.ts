import type { OutgoingHttpHeaders } from "node:http";
import type { ResponseHeaders } from "./deferred-headers.js";

/** A complete response of one call, ready to be written by either HTTP version. */
export interface Answer {
  readonly status: number;
  readonly headers: OutgoingHttpHeaders;
  readonly body: Uint8Array;
  /** HTTP trailers (gRPC only). */
  readonly trailers: OutgoingHttpHeaders | undefined;
  /** The RPC code for the request log, in Connect's spelling; undefined when not known. */
  readonly code: string | undefined;
}

/**
 * Adds WHATWG headers to a Node header object the way connect-node converts them: lowercase
 * names, repeated names collected into an array.
 */
export function addHeaders(into: OutgoingHttpHeaders, headers: Headers): OutgoingHttpHeaders {
  headers.forEach((value, name) => {
    const existing = into[name];
    if (Array.isArray(existing)) existing.push(value);
    else if (existing === undefined) into[name] = value;
    else into[name] = [String(existing), value];
  });
  return into;
}

/** Adds the headers (or trailers) of a call: its defaults when nothing touched them. */
export function addCallHeaders(
  into: OutgoingHttpHeaders,
  headers: ResponseHeaders,
): OutgoingHttpHeaders {
  if (headers.loaded) return addHeaders(into, headers);
  for (const [name, value] of headers.defaults) into[name] = value;
  return into;
}
