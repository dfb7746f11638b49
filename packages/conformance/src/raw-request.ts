import * as http from "node:http";
import * as http2 from "node:http2";
import * as net from "node:net";
import { Duplex } from "node:stream";
import * as tls from "node:tls";

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
 * Sends one request on a fresh connection and reads the whole response. Servers may answer an
 * oversized request early and drop the rest: over HTTP/1.1 the body is sent in slices, each
 * after the event loop has had a chance to read, and sending stops once an answer arrives (as
 * curl does); a connection reset after the answer arrived still yields the answer. Rejects when
 * no response arrives.
 */
export function sendRawRequest(request: RawRequest): Promise<RawResponse> {
  return request.httpVersion === "2" ? sendHttp2(request) : sendHttp1(request);
}

function sendHttp1(request: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(request.path, request.baseUrl);
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
    const outgoing = http.request(url, {
      method: request.method,
      headers: {
        ...request.headers,
        connection: "close",
        ...(request.body ? { "content-length": String(request.body.byteLength) } : {}),
      },
      // No agent: a fresh connection of our own for every request.
      createConnection: () => answerKeepingConnection(connectTo(url)),
    });
    const timer = setTimeout(() => {
      outgoing.destroy();
      finish(new Error(`no response within ${request.timeoutMs} ms`));
    }, request.timeoutMs);
    let answered = false;
    outgoing.on("response", (incoming) => {
      answered = true;
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
    if (request.body === undefined) outgoing.end();
    else void sendBody(outgoing, request.body, () => answered || settled);
  });
}

const bodySliceBytes = 64 * 1024;

/**
 * Writes a request body slice by slice, yielding to the event loop before each slice so that an
 * answer already received is read (and `stop` turns true) before more is written: writing into
 * a connection the server has reset destroys it, unread answer included. Once stopped, the
 * request is left unfinished; the caller drops the connection after reading the answer.
 */
async function sendBody(
  outgoing: http.ClientRequest,
  body: Uint8Array,
  stop: () => boolean,
): Promise<void> {
  for (let offset = 0; offset < body.byteLength; offset += bodySliceBytes) {
    await new Promise((resolve) => setImmediate(resolve));
    if (stop() || outgoing.destroyed) return;
    const slice = Buffer.from(
      body.buffer,
      body.byteOffset + offset,
      Math.min(bodySliceBytes, body.byteLength - offset),
    );
    if (!outgoing.write(slice)) await writableOrOver(outgoing);
  }
  if (!stop() && !outgoing.destroyed) outgoing.end();
}

/** Resolves once `outgoing` drains, gets an answer or closes. */
function writableOrOver(outgoing: http.ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const events = ["drain", "response", "close"] as const;
    const done = () => {
      for (const event of events) outgoing.off(event, done);
      resolve();
    };
    for (const event of events) outgoing.on(event, done);
  });
}

function connectTo(url: URL): net.Socket {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  if (url.protocol !== "https:") return net.connect({ host, port });
  return tls.connect({
    host,
    port,
    ALPNProtocols: ["http/1.1"],
    ...(net.isIP(host) === 0 ? { servername: host } : {}),
  });
}

/**
 * Wraps a connection so that a failed write (EPIPE, ECONNRESET) does not end the exchange: a
 * server may answer an oversized request early (HTTP 413 or 429, `connection: close`) and close
 * while the body is still being sent. Node's HTTP client would report the write error and throw
 * the answer away; through this wrapper the rest of the body is dropped and the answer that
 * already arrived is still read. An error before any byte arrived (connection refused, reset
 * before an answer) reaches the client as it is.
 */
function answerKeepingConnection(socket: net.Socket): Duplex {
  let writable = true;
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    connection.push(null);
  };
  const connection = new Duplex({
    read() {
      socket.resume();
    },
    write(chunk: Buffer, _encoding, callback) {
      if (!writable) {
        callback();
        return;
      }
      socket.write(chunk, () => callback());
    },
    final(callback) {
      if (writable) socket.end();
      callback();
    },
    destroy(error, callback) {
      socket.destroy();
      callback(error);
    },
  });
  let received = false;
  socket.on("data", (chunk: Buffer) => {
    received = true;
    if (!connection.push(chunk)) socket.pause();
  });
  socket.on("error", (error) => {
    writable = false;
    // Nothing to read (refused, reset before any answer): the client reports the cause.
    if (!received) connection.destroy(error);
    else end();
  });
  socket.on("end", end);
  socket.on("close", end);
  return connection;
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
