import type {
  IncomingHttpHeaders,
  IncomingMessage,
  OutgoingHttpHeaders,
  ServerResponse,
} from "node:http";
import type { IncomingHttpStatusHeader, ServerHttp2Stream } from "node:http2";
import { constants as http2Constants } from "node:http2";
import type { Readable } from "node:stream";
import type { ConnectRouter, Interceptor } from "@connectrpc/connect";
import { Code, ConnectError, createContextValues } from "@connectrpc/connect";
import { compressionNegotiate } from "@connectrpc/connect/protocol";
import { parseTimeout as parseConnectTimeout } from "@connectrpc/connect/protocol-connect";
import { parseTimeout as parseGrpcTimeout } from "@connectrpc/connect/protocol-grpc";
import { compressionBrotli, compressionGzip } from "@connectrpc/connect-node";
import type { FastifyInstance } from "fastify";
import { requestIdFromHeaders, traceparentFromHeaders } from "../request-id.js";
import type { RpcProtocol, RpcRecord } from "../rpc-record.js";
import { rpcRecordKey } from "../rpc-record.js";
import type { CorsOptions } from "../server-options.js";
import type { Answer } from "./answer.js";
import { BodyReader } from "./body-reader.js";
import { CallSignal } from "./call-signal.js";
import { answerConnect } from "./connect-answer.js";
import type { CorsHeaders } from "./cors-headers.js";
import { createCorsHeaders } from "./cors-headers.js";
import { NodeRequestHeaders, ResponseHeaders } from "./deferred-headers.js";
import { answerGrpc } from "./grpc-answer.js";
import type { FastMethod } from "./method-table.js";
import { createRecordingRouter } from "./method-table.js";
import type { UnaryCall } from "./unary-call.js";
import { timeoutClock } from "./unary-call.js";

/** Options of `createFastPath`: the same values the server gives connect-fastify. */
export interface FastPathOptions {
  /** Largest request message in bytes (after decompression). */
  readonly readMaxBytes: number;
  /** The server's CORS setting, answered identically on the fast path. */
  readonly cors: CorsOptions | false | undefined;
  /** Aborted when the shutdown timeout passes: in-flight calls see its reason. */
  readonly shutdownSignal: AbortSignal;
}

/** What the fast path needs from the app once it is built. */
export interface FastPathAttachOptions {
  /** The interceptors connect-fastify runs, in the same order. */
  readonly interceptors: readonly Interceptor[];
}

/**
 * A lean path for the unary RPCs of the routes it recorded, beside connect-fastify: requests it
 * fully understands are decoded, called and answered straight on Node's http2 stream or HTTP/1.1
 * response; it declines everything else (returns false) and the request takes the normal path.
 */
export interface FastPath {
  /** Wraps the router given to the routes function, recording what it registers. */
  recordRoutes(router: ConnectRouter): ConnectRouter;
  /** Starts serving: after this, recorded unary methods are answered here. */
  attach(app: FastifyInstance, options: FastPathAttachOptions): void;
  /** Serves an HTTP/2 stream; false when the stream is not for the fast path. */
  handleStream(stream: ServerHttp2Stream, headers: IncomingHttpHeaders, scheme: string): boolean;
  /** Serves an HTTP/1.1 request; false when the request is not for the fast path. */
  handleRequest(request: IncomingMessage, response: ServerResponse, scheme: string): boolean;
}

/** The request kinds served here; anything else (other types, text, +json) falls through. */
const grpcTypes = new Set(["application/grpc", "application/grpc+proto"]);
const grpcWebTypes = new Set(["application/grpc-web", "application/grpc-web+proto"]);
const connectTypes = new Map([
  ["application/proto", true],
  ["application/json", false],
  ["application/json; charset=utf-8", false],
  ["application/json;charset=utf-8", false],
]);

/** Compressions accepted and offered, as connect-fastify's defaults. */
const acceptCompression = [compressionGzip, compressionBrotli];

interface Route {
  readonly method: FastMethod;
  readonly protocol: RpcProtocol;
  readonly binary: boolean;
  readonly query: URLSearchParams | undefined;
}

/** Writes an answer and reports when it left; differs per HTTP version. */
interface Exchange {
  readonly source: Readable;
  readonly httpVersion: string;
  readonly httpVersionMajor: number;
  /** Whether the request body was received completely. */
  readonly bodyComplete: () => boolean;
  readonly authority: string;
  readonly path: string;
  readonly requestMethod: string;
  /**
   * Starts watching the exchange: `gone` runs if the client goes away before the answer was
   * written; `done` runs with the HTTP status when the exchange is over, at the moment the
   * normal path's `onResponse` hook would (an HTTP/1.1 response finished, an HTTP/2 stream
   * closed, answered or not).
   */
  watch(gone: (reason: unknown) => void, done: (status: number) => void): void;
  write(answer: Answer, extra: Record<string, string>): void;
  /** Gives up on a request the fast path could not answer (an internal failure). */
  fail(): void;
}

const serverFaultCodes = new Set(["internal", "unknown", "data_loss", "unavailable"]);

interface RequestLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
  isLevelEnabled?(level: string): boolean;
}

/** Creates the fast path; it serves nothing until routes were recorded and `attach` ran. */
export function createFastPath(options: FastPathOptions): FastPath {
  const { readMaxBytes, shutdownSignal } = options;
  const cors: CorsHeaders = createCorsHeaders(options.cors);
  let methods: ReadonlyMap<string, FastMethod> = new Map();
  let interceptors: readonly Interceptor[] = [];
  let logger: RequestLogger | undefined;
  let serving = false;
  const inFlight = new Set<CallSignal>();
  shutdownSignal.addEventListener(
    "abort",
    () => {
      for (const signal of inFlight) signal.abort(shutdownSignal.reason);
    },
    { once: true },
  );

  function route(
    requestMethod: string | undefined,
    path: string,
    headers: IncomingHttpHeaders,
    http2: boolean,
  ): Route | undefined {
    if (!serving) return undefined;
    if (requestMethod === "POST") {
      const method = methods.get(path);
      if (method === undefined) return undefined;
      const type = headers["content-type"];
      if (type === undefined) return undefined;
      if (http2 && grpcTypes.has(type))
        return { method, protocol: "grpc", binary: true, query: undefined };
      if (grpcWebTypes.has(type))
        return { method, protocol: "grpc-web", binary: true, query: undefined };
      const binary = connectTypes.get(type);
      if (binary === undefined) return undefined;
      return { method, protocol: "connect", binary, query: undefined };
    }
    if (requestMethod === "GET") {
      const q = path.indexOf("?");
      if (q < 0) return undefined;
      const method = methods.get(path.slice(0, q));
      if (method === undefined || !method.allowsGet || headers["content-type"] !== undefined) {
        return undefined;
      }
      const query = new URLSearchParams(path.slice(q + 1));
      const encoding = query.get("encoding");
      if (encoding !== "proto" && encoding !== "json") return undefined;
      return { method, protocol: "connect", binary: encoding === "proto", query };
    }
    return undefined;
  }

  function serve(
    target: Route,
    headers: IncomingHttpHeaders,
    scheme: string,
    exchange: Exchange,
  ): void {
    const started = performance.now();
    const requestId = requestIdFromHeaders(headers);
    const extra: Record<string, string> = { "x-request-id": requestId };
    const traceparent = traceparentFromHeaders(headers);
    if (traceparent !== undefined) extra.traceparent = traceparent;
    cors(single(headers.origin), extra);

    const { method, protocol } = target;
    const record: RpcRecord = {
      service: method.service.typeName,
      method: method.method.name,
      protocol,
      code: undefined,
      bodyComplete: exchange.bodyComplete,
      httpVersionMajor: exchange.httpVersionMajor,
    };
    const requestHeader = new NodeRequestHeaders(headers);
    const connect = protocol === "connect";
    const timeout = connect
      ? parseConnectTimeout(requestHeader.get("connect-timeout-ms"), Number.MAX_SAFE_INTEGER)
      : parseGrpcTimeout(requestHeader.get("grpc-timeout"), Number.MAX_SAFE_INTEGER);
    const signal = new CallSignal(timeout.timeoutMs);
    if (shutdownSignal.aborted) signal.abort(shutdownSignal.reason);
    inFlight.add(signal);

    const compression = connect
      ? compressionNegotiate(
          acceptCompression,
          target.query ? target.query.get("compression") : requestHeader.get("content-encoding"),
          requestHeader.get("accept-encoding"),
          "Accept-Encoding",
        )
      : compressionNegotiate(
          acceptCompression,
          requestHeader.get("grpc-encoding"),
          requestHeader.get("grpc-accept-encoding"),
          "Grpc-Accept-Encoding",
        );
    const call: UnaryCall = {
      route: method,
      protocolName: protocol,
      requestMethod: exchange.requestMethod,
      requestHeader,
      url: requestUrl(scheme, exchange.authority, exchange.path),
      contextValues: createContextValues().set(rpcRecordKey, record),
      signal,
      timeoutMs: timeoutClock(timeout.timeoutMs),
      responseHeader: new ResponseHeaders(
        responseHeaderDefaults(target, compression.response?.name),
      ),
      responseTrailer: new ResponseHeaders(connect ? noDefaults : grpcTrailerDefaults),
    };
    const reader = target.query === undefined ? new BodyReader(exchange.source) : undefined;
    exchange.watch(
      (reason) => {
        signal.abort(reason);
        reader?.fail();
      },
      (status) => log(record, status, exchange, requestId, started),
    );
    const answered = connect
      ? answerConnect({
          call,
          binary: target.binary,
          reader,
          query: target.query,
          contentLength: requestHeader.get("content-length"),
          compression,
          timeoutError: timeout.error,
          interceptors,
          readMaxBytes,
        })
      : answerGrpc({
          call,
          web: protocol === "grpc-web",
          reader: reader as BodyReader,
          compression,
          timeoutError: timeout.error,
          interceptors,
          readMaxBytes,
        });
    answered.then(
      (answer) => {
        inFlight.delete(signal);
        reader?.stop();
        record.code = answer.code;
        exchange.write(answer, extra);
      },
      (error: unknown) => {
        inFlight.delete(signal);
        reader?.stop();
        logger?.error({ err: error, requestId }, "rpc failed unexpectedly");
        exchange.fail();
      },
    );
  }

  function log(
    record: RpcRecord,
    status: number,
    exchange: Exchange,
    requestId: string,
    started: number,
  ): void {
    if (logger === undefined) return;
    const code = record.code ?? `http_${status}`;
    const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
    const fields = {
      requestId,
      service: record.service,
      method: record.method,
      protocol: record.protocol,
      code,
      httpStatus: status,
      httpVersion: exchange.httpVersion,
      durationMs,
    };
    if (serverFaultCodes.has(code)) logger.warn(fields, "rpc completed");
    else logger.info(fields, "rpc completed");
  }

  return {
    recordRoutes(router) {
      const recording = createRecordingRouter(router, { readMaxBytes });
      methods = recording.methods;
      return recording.router;
    },
    attach(app, attachOptions) {
      interceptors = [...attachOptions.interceptors];
      const log = app.log as unknown as RequestLogger;
      logger = typeof log.isLevelEnabled === "function" ? log : undefined;
      // Fastify answers 503 once closing starts; new requests go there to get it.
      app.addHook("preClose", (done) => {
        serving = false;
        done();
      });
      serving = true;
    },
    handleStream(stream, headers, scheme) {
      const path = single(headers[":path"]);
      const authority = single(headers[":authority"] ?? headers.host);
      if (path === undefined || authority === undefined) return false;
      const target = route(single(headers[":method"]), path, headers, true);
      if (target === undefined) return false;
      serve(
        target,
        headers,
        scheme,
        http2Exchange(
          stream,
          headers as IncomingHttpHeaders & IncomingHttpStatusHeader,
          path,
          authority,
        ),
      );
      return true;
    },
    handleRequest(request, response, scheme) {
      const path = request.url;
      const authority = request.headers.host;
      if (path === undefined || authority === undefined) return false;
      const target = route(request.method, path, request.headers, false);
      if (target === undefined) return false;
      serve(target, request.headers, scheme, http1Exchange(request, response, path, authority));
      return true;
    },
  };
}

const grpcTrailerDefaults: ReadonlyArray<readonly [string, string]> = [["grpc-status", "0"]];
const noDefaults: ReadonlyArray<readonly [string, string]> = [];

/** Authorities and paths `new URL()` leaves exactly as they are. */
const plainAuthority = /^[a-z0-9.-]+(?::[1-9][0-9]{0,4})?$/;
const plainPath = /^\/[A-Za-z0-9._~/-]*$/;

/**
 * The request URL as connect-node computes it (`new URL(path, scheme://authority)`), without
 * parsing when the parts are already in normal form (every recorded RPC path is).
 */
function requestUrl(scheme: string, authority: string, path: string): string {
  const defaultPort = scheme === "https" ? ":443" : ":80";
  if (plainAuthority.test(authority) && !authority.endsWith(defaultPort) && plainPath.test(path)) {
    return `${scheme}://${authority}${path}`;
  }
  return new URL(path, `${scheme}://${authority}`).toString();
}

/** The response header defaults of each kind of call, made once. */
const headerDefaults = new Map<string, ReadonlyArray<readonly [string, string]>>();

function responseHeaderDefaults(
  target: Route,
  encoding: string | undefined,
): ReadonlyArray<readonly [string, string]> {
  const key = `${target.protocol}|${target.binary}|${encoding ?? ""}`;
  let defaults = headerDefaults.get(key);
  if (defaults === undefined) {
    const contentType =
      target.protocol === "connect"
        ? target.binary
          ? "application/proto"
          : "application/json"
        : target.protocol === "grpc"
          ? "application/grpc+proto"
          : "application/grpc-web+proto";
    const entries: Array<[string, string]> = [["content-type", contentType]];
    if (target.protocol !== "connect" && encoding !== undefined) {
      entries.push(["grpc-encoding", encoding]);
    }
    defaults = entries;
    headerDefaults.set(key, defaults);
  }
  return defaults;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function ignore(): void {}

/** The reason a call's signal gets when its client went away without an HTTP/2 error code. */
function clientGone(): DOMException {
  return new DOMException("This operation was aborted", "AbortError");
}

function http2Exchange(
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders & IncomingHttpStatusHeader,
  path: string,
  authority: string,
): Exchange {
  // A stream reset by the client emits errors nobody else would handle.
  stream.on("error", ignore);
  let written = false;
  let status = 200;
  return {
    source: stream,
    httpVersion: "2.0",
    httpVersionMajor: 2,
    bodyComplete: () => stream.readableEnded || stream.destroyed,
    authority,
    path,
    requestMethod: String(headers[":method"]),
    watch(gone, done) {
      stream.on("close", () => {
        if (!written) gone(errorFromResetCode(stream.rstCode) ?? clientGone());
        done(status);
      });
    },
    write(answer, extra) {
      written = true;
      if (stream.destroyed || stream.closed) return;
      status = answer.status;
      const head = Object.assign({ ":status": answer.status }, extra, answer.headers);
      try {
        const trailers = answer.trailers;
        if (trailers !== undefined) {
          stream.respond(head, { waitForTrailers: true });
          stream.once("wantTrailers", () => {
            stream.sendTrailers(trailers);
            resetIfUnread(stream);
          });
          stream.end(answer.body);
        } else {
          stream.respond(head);
          stream.end(answer.body, () => resetIfUnread(stream));
        }
      } catch {
        // The session went away between the check and the write: nobody is listening.
        stream.destroy();
      }
    },
    fail() {
      written = true;
      stream.close(0x02);
    },
  };
}

/**
 * Resets a stream answered before its request body was read (too large, refused) once the
 * answer is out, as the normal path does: a client blocked on flow control would otherwise keep
 * the stream, and its session, open. CANCEL rather than NO_ERROR: Node defers a NO_ERROR reset
 * until the stream's writable side finishes.
 */
function resetIfUnread(stream: ServerHttp2Stream): void {
  if (stream.readableEnded) return;
  setImmediate(() => {
    if (!stream.destroyed && !stream.readableEnded) stream.close(http2Constants.NGHTTP2_CANCEL);
  });
}

function http1Exchange(
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
  authority: string,
): Exchange {
  request.on("error", ignore);
  response.on("error", ignore);
  let written = false;
  return {
    source: request,
    httpVersion: request.httpVersion,
    httpVersionMajor: request.httpVersionMajor,
    bodyComplete: () => request.complete,
    authority,
    path,
    requestMethod: request.method as string,
    watch(gone, done) {
      response.on("close", () => {
        if (!written) gone(request.errored ? errorFromNodeReason(request.errored) : clientGone());
      });
      response.on("finish", () => done(response.statusCode));
    },
    write(answer, extra) {
      written = true;
      if (response.destroyed) return;
      const head: OutgoingHttpHeaders = Object.assign(extra, answer.headers);
      // Answered before the body was read (too large, refused): the rest of it must not be
      // parsed as the next request, as on the normal path.
      if (!request.complete) head.connection = "close";
      response.writeHead(answer.status, head);
      response.end(answer.body);
    },
    fail() {
      written = true;
      response.destroy();
    },
  };
}

/** Connect's reading of an HTTP/2 reset code as the reason a call was aborted. */
function errorFromResetCode(rstCode: number | undefined): ConnectError | undefined {
  const name = rstCode === undefined ? undefined : resetCodeNames[rstCode];
  if (rstCode === undefined || name === undefined) return undefined;
  const code = resetCodes[rstCode] as Code;
  return new ConnectError(
    `http/2 stream closed with error code ${name} (0x${rstCode.toString(16)})`,
    code,
  );
}

const resetCodeNames: Record<number, string> = {
  1: "PROTOCOL_ERROR",
  2: "INTERNAL_ERROR",
  3: "FLOW_CONTROL_ERROR",
  4: "SETTINGS_TIMEOUT",
  6: "FRAME_SIZE_ERROR",
  7: "REFUSED_STREAM",
  8: "CANCEL",
  9: "COMPRESSION_ERROR",
  10: "CONNECT_ERROR",
  11: "ENHANCE_YOUR_CALM",
  12: "INADEQUATE_SECURITY",
  13: "HTTP_1_1_REQUIRED",
};

const resetCodes: Record<number, Code> = {
  1: Code.Internal,
  2: Code.Internal,
  3: Code.Internal,
  4: Code.Internal,
  6: Code.Internal,
  7: Code.Unavailable,
  8: Code.Canceled,
  9: Code.Internal,
  10: Code.Internal,
  11: Code.ResourceExhausted,
  12: Code.PermissionDenied,
  13: Code.PermissionDenied,
};

/** Connect's reading of a broken HTTP/1.1 request as the reason a call was aborted. */
function errorFromNodeReason(reason: Error): ConnectError {
  const code = (reason as { code?: unknown }).code;
  const aborted =
    code === "ECONNRESET" ||
    code === "ERR_STREAM_DESTROYED" ||
    code === "ERR_STREAM_WRITE_AFTER_END";
  return ConnectError.from(reason, aborted ? Code.Aborted : Code.Internal);
}
