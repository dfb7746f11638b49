import * as http from "node:http";
import * as http2 from "node:http2";
import * as https from "node:https";

/** A request sent byte for byte, bypassing every RPC client. */
export interface RawRequest {
  /** Origin of the plugin, e.g. `http://127.0.0.1:50051`. */
  readonly baseUrl: string;
  /** Path and query, e.g. `/costplugin.v1.CostSourceService/Name`. */
  readonly path: string;
  /** HTTP method. */
  readonly method: "GET" | "POST";
  /** Request headers (lower-case names). */
  readonly headers: Readonly<Record<string, string>>;
  /** Request body; none for GET. */
  readonly body?: Uint8Array;
  /** `2` speaks HTTP/2 with prior knowledge (h2c) or ALPN (TLS); `1.1` HTTP/1.1. */
  readonly httpVersion: "1.1" | "2";
  /** Time allowed for the whole exchange. */
  readonly timeoutMs: number;
}

/** What came back: status, headers, trailers and the whole body. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly trailers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/**
 * Sends one request on a fresh connection and reads the whole response. A connection that is
 * reset after the response headers arrived still yields the response: servers may answer an
 * oversized request early and drop the rest. Rejects when no response arrives.
 */
export function sendRawRequest(request: RawRequest): Promise<RawResponse> {
  return request.httpVersion === "2" ? sendHttp2(request) : sendHttp1(request);
}

function sendHttp1(request: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(request.path, request.baseUrl);
    const client = url.protocol === "https:" ? https : http;
    let settled = false;
    const finish = (error: Error | undefined, response?: RawResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // The exchange is over: drop the connection, even if the server left the rest of an
      // oversized body unread, so neither side waits on it.
      outgoing.destroy();
      if (response) resolve(response);
      else reject(error ?? new Error("no response"));
    };
    const outgoing = client.request(url, {
      method: request.method,
      headers: {
        ...request.headers,
        connection: "close",
        ...(request.body ? { "content-length": String(request.body.byteLength) } : {}),
      },
      agent: false,
    });
    const timer = setTimeout(() => {
      outgoing.destroy();
      finish(new Error(`no response within ${request.timeoutMs} ms`));
    }, request.timeoutMs);
    outgoing.on("response", (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      const done = () =>
        finish(undefined, {
          status: incoming.statusCode ?? 0,
          headers: flattenHeaders(incoming.headers),
          trailers: flattenHeaders(incoming.trailers),
          body: Buffer.concat(chunks),
        });
      incoming.on("end", done);
      incoming.on("aborted", done);
      incoming.on("error", done);
    });
    outgoing.on("error", (error) => finish(error));
    outgoing.end(request.body ? Buffer.from(request.body) : undefined);
  });
}

function sendHttp2(request: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(request.baseUrl);
    let settled = false;
    let status = 0;
    let headers: Record<string, string> | undefined;
    let trailers: Record<string, string> = {};
    const chunks: Buffer[] = [];
    let streamError: Error | undefined;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      session.destroy();
      if (headers) resolve({ status, headers, trailers, body: Buffer.concat(chunks) });
      else reject(streamError ?? new Error("the connection closed without a response"));
    };
    const timer = setTimeout(() => {
      streamError = new Error(`no response within ${request.timeoutMs} ms`);
      headers = undefined;
      finish();
    }, request.timeoutMs);
    session.on("error", (error) => {
      streamError ??= error;
      finish();
    });
    session.on("close", finish);
    const stream = session.request(
      { ":method": request.method, ":path": request.path, ...request.headers },
      { endStream: request.body === undefined },
    );
    stream.on("response", (incoming) => {
      status = Number(incoming[":status"] ?? 0);
      headers = flattenHeaders(incoming);
    });
    stream.on("trailers", (incoming) => {
      trailers = flattenHeaders(incoming);
    });
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    // The answer is complete when its side of the stream ends, even if the server never read
    // the rest of an oversized request (the stream then stays half open until destroyed).
    stream.on("end", finish);
    stream.on("error", (error) => {
      streamError ??= error;
    });
    stream.on("close", () => {
      if (!headers && streamError === undefined && stream.rstCode) {
        streamError = new Error(`the stream was reset (HTTP/2 error code ${stream.rstCode})`);
      }
      finish();
    });
    if (request.body) stream.end(Buffer.from(request.body));
  });
}

function flattenHeaders(
  headers: http.IncomingHttpHeaders | http2.IncomingHttpHeaders | NodeJS.Dict<string | string[]>,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name.startsWith(":")) continue;
    result[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
  }
  return result;
}
