/** The 24 bytes every HTTP/2 connection starts with (RFC 9113, section 3.4). */
export const http2Preface = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");

/** What the first bytes of a connection say about its protocol. */
export type PrefaceVerdict = "http2" | "http1" | "undecided";

/**
 * Classifies the first bytes of a cleartext connection: `http2` once the complete preface
 * arrived, `http1` as soon as a byte differs from it, `undecided` while the bytes so far are a
 * proper prefix of the preface (a client may send it in pieces).
 */
export function prefaceVerdictFromBytes(bytes: Uint8Array): PrefaceVerdict {
  const length = Math.min(bytes.length, http2Preface.length);
  for (let i = 0; i < length; i++) {
    if (bytes[i] !== http2Preface[i]) return "http1";
  }
  return bytes.length >= http2Preface.length ? "http2" : "undecided";
}
