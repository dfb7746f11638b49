import { Code } from "@connectrpc/connect";
import type { ConformanceProtocol } from "./protocols.js";
import type { RawRequest, RawResponse } from "./raw-request.js";

/** The body of a raw RPC request: the protobuf bytes and the JSON text of the same message. */
export interface RawRpcPayload {
  /** Protobuf bytes, for gRPC, gRPC-web and Connect binary. */
  readonly binary: Uint8Array;
  /** JSON text, for Connect JSON. */
  readonly json: string;
}

/**
 * What a raw RPC answered: `ok`, a well-formed `error` (gRPC status or Connect error / HTTP
 * error status) with its code, or `malformed` (nothing a client of that protocol could read).
 */
export interface RawRpcOutcome {
  readonly kind: "ok" | "error" | "malformed";
  /** The error code (`invalid_argument`, ...) or `http <status>`, for `error`. */
  readonly code?: string;
  /** A one-line description of the answer, for reports. */
  readonly summary: string;
}

/** Frames a message the gRPC and gRPC-web way: flags byte, big-endian length, payload. */
export function envelope(payload: Uint8Array, flags = 0): Uint8Array {
  const framed = new Uint8Array(5 + payload.byteLength);
  const view = new DataView(framed.buffer);
  view.setUint8(0, flags);
  view.setUint32(1, payload.byteLength);
  framed.set(payload, 5);
  return framed;
}

/**
 * A raw request calling `path` in `protocol`. `body` replaces the encoded payload when given
 * (garbage, wrong framing); it is sent as is, unframed.
 */
export function rawRpcRequest(
  protocol: ConformanceProtocol,
  options: {
    readonly baseUrl: string;
    readonly path: string;
    readonly payload?: RawRpcPayload;
    readonly body?: Uint8Array;
    readonly httpVersion: "1.1" | "2";
    readonly timeoutMs: number;
  },
): RawRequest {
  const payload = options.payload ?? { binary: new Uint8Array(0), json: "{}" };
  const common = {
    baseUrl: options.baseUrl,
    path: options.path,
    method: "POST" as const,
    timeoutMs: options.timeoutMs,
  };
  switch (protocol) {
    case "grpc":
      return {
        ...common,
        httpVersion: "2",
        headers: { "content-type": "application/grpc+proto", te: "trailers" },
        body: options.body ?? envelope(payload.binary),
      };
    case "grpc-web":
      return {
        ...common,
        httpVersion: options.httpVersion,
        headers: { "content-type": "application/grpc-web+proto", "x-grpc-web": "1" },
        body: options.body ?? envelope(payload.binary),
      };
    case "connect-json":
      return {
        ...common,
        httpVersion: options.httpVersion,
        headers: { "content-type": "application/json", "connect-protocol-version": "1" },
        body: options.body ?? new TextEncoder().encode(payload.json),
      };
    case "connect-binary":
      return {
        ...common,
        httpVersion: options.httpVersion,
        headers: { "content-type": "application/proto", "connect-protocol-version": "1" },
        body: options.body ?? payload.binary,
      };
  }
}

/** Reads a raw response the way a client of `protocol` would. */
export function rawRpcOutcome(protocol: ConformanceProtocol, response: RawResponse): RawRpcOutcome {
  const contentType = response.headers["content-type"] ?? "";
  if (protocol === "grpc" || protocol === "grpc-web") {
    if (response.status !== 200) {
      return httpError(response);
    }
    const status =
      response.headers["grpc-status"] ??
      response.trailers["grpc-status"] ??
      (protocol === "grpc-web" ? grpcWebTrailers(response.body)["grpc-status"] : undefined);
    if (status === undefined) {
      return {
        kind: "malformed",
        summary: `HTTP 200 (${contentType || "no content type"}) without grpc-status`,
      };
    }
    const code = Number(status);
    if (code === 0) return { kind: "ok", summary: "grpc-status 0 (ok)" };
    const name = codeName(code);
    return { kind: "error", code: name, summary: `grpc-status ${status} (${name})` };
  }
  if (response.status === 200) return { kind: "ok", summary: `HTTP 200 (${contentType})` };
  if (response.status >= 400) {
    const code = connectErrorCode(response);
    if (code !== undefined) {
      return { kind: "error", code, summary: `HTTP ${response.status}, Connect error "${code}"` };
    }
    return httpError(response);
  }
  return { kind: "malformed", summary: `HTTP ${response.status} (${contentType})` };
}

/** Whether the response is one a client of `protocol` recognises as its own protocol. */
export function speaksProtocol(protocol: ConformanceProtocol, response: RawResponse): boolean {
  const contentType = response.headers["content-type"] ?? "";
  switch (protocol) {
    case "grpc":
      return (
        contentType.startsWith("application/grpc") &&
        !contentType.startsWith("application/grpc-web") &&
        (response.headers["grpc-status"] ?? response.trailers["grpc-status"]) !== undefined
      );
    case "grpc-web":
      return response.status === 200 && contentType.startsWith("application/grpc-web");
    case "connect-json":
      return (
        (response.status === 200 && contentType.startsWith("application/json")) ||
        connectErrorCode(response) !== undefined
      );
    case "connect-binary":
      return (
        (response.status === 200 && contentType.startsWith("application/proto")) ||
        connectErrorCode(response) !== undefined
      );
  }
}

/** The trailers carried in the body of a gRPC-web response (the frame flagged 0x80). */
export function grpcWebTrailers(body: Uint8Array): Record<string, string> {
  const trailers: Record<string, string> = {};
  let offset = 0;
  while (offset + 5 <= body.byteLength) {
    const flags = body[offset] as number;
    const length = new DataView(body.buffer, body.byteOffset + offset + 1, 4).getUint32(0);
    const start = offset + 5;
    if ((flags & 0x80) === 0x80) {
      const text = new TextDecoder().decode(body.subarray(start, start + length));
      for (const line of text.split("\r\n")) {
        const colon = line.indexOf(":");
        if (colon > 0)
          trailers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
    }
    offset = start + length;
  }
  return trailers;
}

/** `invalid_argument` for `Code.InvalidArgument`: the Connect spelling of a code. */
export function codeName(code: number): string {
  const name = Code[code];
  if (name === undefined) return `code ${code}`;
  return name.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();
}

function connectErrorCode(response: RawResponse): string | undefined {
  if (!(response.headers["content-type"] ?? "").startsWith("application/json")) return undefined;
  try {
    const parsed: unknown = JSON.parse(response.body.toString("utf8"));
    const code = (parsed as { code?: unknown } | null)?.code;
    return typeof code === "string" && code !== "" ? code : undefined;
  } catch {
    return undefined;
  }
}

function httpError(response: RawResponse): RawRpcOutcome {
  const contentType = response.headers["content-type"] ?? "no content type";
  if (response.status >= 400) {
    return {
      kind: "error",
      code: `http ${response.status}`,
      summary: `HTTP ${response.status} (${contentType})`,
    };
  }
  return { kind: "malformed", summary: `HTTP ${response.status} (${contentType})` };
}
