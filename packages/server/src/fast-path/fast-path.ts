import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { ServerHttp2Stream } from "node:http2";
import type { ConnectRouter, Interceptor } from "@connectrpc/connect";
import { compressionNegotiate } from "@connectrpc/connect/protocol";
import { parseTimeout as parseConnectTimeout } from "@connectrpc/connect/protocol-connect";
import { parseTimeout as parseGrpcTimeout } from "@connectrpc/connect/protocol-grpc";
import { compressionBrotli, compressionGzip } from "@connectrpc/connect-node";
import type { FastifyInstance } from "fastify";
import { requestIdFromHeaders, traceparentFromHeaders } from "../request-id.js";
import type { RpcProtocol, RpcRecord } from "../rpc-record.js";
import type { CorsOptions } from "../server-options.js";
import { BodyReader } from "./body-reader.js";
import { CallContextValues } from "./call-context-values.js";
import { CallSignal } from "./call-signal.js";
import { answerConnect } from "./connect-answer.js";
import type { CorsHeaders } from "./cors-headers.js";
import { createCorsHeaders } from "./cors-headers.js";
import { NodeRequestHeaders, ResponseHeaders } from "./deferred-headers.js";
import type { Exchange } from "./exchange.js";
import { Http1Exchange, Http2Exchange } from "./exchange.js";
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
      contextValues: new CallContextValues(record),
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
      const method = target.query === undefined ? "POST" : "GET";
      serve(target, headers, scheme, new Http2Exchange(stream, method, path, authority));
      return true;
    },
    handleRequest(request, response, scheme) {
      const path = request.url;
      const authority = request.headers.host;
      if (path === undefined || authority === undefined) return false;
      const target = route(request.method, path, request.headers, false);
      if (target === undefined) return false;
      serve(target, request.headers, scheme, new Http1Exchange(request, response, path, authority));
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
