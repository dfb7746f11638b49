import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import type { AnyRequest, AnyResponse, ConnectionTracker } from "./connection-tracker.js";
import type { FastPath } from "./fast-path/fast-path.js";
import { installFastPath } from "./fast-path/install-fast-path.js";
import { prefaceVerdictFromBytes } from "./http2-preface.js";
import type { ResolvedServerOptions } from "./server-options.js";

/** The request listener both inner servers feed; Fastify's `serverFactory` handler fits. */
export type RequestHandler = (request: AnyRequest, response: AnyResponse) => void;

/** Options of `createConnectionRouter`. */
export interface ConnectionRouterOptions {
  /** Receives every request of both HTTP versions. */
  readonly handler: RequestHandler;
  /** Timeouts applied to both inner servers and to protocol detection. */
  readonly timeouts: ResolvedServerOptions["timeouts"];
  /** Learns about every socket, session and request, for graceful shutdown. */
  readonly tracker: ConnectionTracker;
  /** Offered every request first; what it declines goes to `handler`. Default: none. */
  readonly fastPath?: FastPath;
}

/**
 * Most concurrent streams one HTTP/2 client may open. Node's default is unlimited; 256 keeps a
 * single client from monopolising the process while leaving room for multiplexing clients.
 */
const maxConcurrentStreams = 256;

/**
 * How often Node checks HTTP/1.1 connections against the header and request timeouts. Its
 * default (30 s) would let a 10 s header timeout fire up to 40 s late.
 */
function checkingIntervalMs(headersMs: number): number {
  return Math.max(50, Math.min(1_000, Math.floor(headersMs / 4)));
}

/**
 * One cleartext TCP listener for HTTP/1.1 and HTTP/2 with prior knowledge (h2c). Node's http2
 * server cannot fall back to HTTP/1.1 without TLS, so this server reads the first bytes of each
 * connection and hands it to an inner `node:http2` server when they are the HTTP/2 preface, to
 * an inner `node:http` server otherwise. Both inner servers never listen themselves.
 */
export function createConnectionRouter(options: ConnectionRouterOptions): net.Server {
  const { handler, timeouts, tracker } = options;
  const listener: RequestHandler = (request, response) => {
    tracker.trackRequest(request, response);
    handler(request, response);
  };

  const http1 = http.createServer(
    { connectionsCheckingInterval: checkingIntervalMs(timeouts.headersMs) },
    listener as http.RequestListener,
  );
  http1.headersTimeout = timeouts.headersMs;
  http1.requestTimeout = timeouts.requestMs;
  http1.keepAliveTimeout = timeouts.keepAliveMs;

  const h2 = http2.createServer({ settings: { maxConcurrentStreams } }, listener);
  h2.on("session", (session) => {
    tracker.addSession(session);
    session.setTimeout(timeouts.http2SessionMs, () => session.close());
  });
  // A broken session is destroyed by Node itself; there is nobody left to answer.
  h2.on("sessionError", () => {});
  if (options.fastPath) {
    installFastPath({ fastPath: options.fastPath, http1, http2: h2, tracker, scheme: "http" });
  }

  const front = net.createServer({ allowHalfOpen: true }, (socket) => {
    tracker.addSocket(socket, "pending");
    let buffered: Buffer = Buffer.alloc(0);
    const stop = () => {
      socket.off("data", onData);
      socket.off("end", drop);
      socket.off("timeout", drop);
      socket.off("error", drop);
      socket.setTimeout(0);
    };
    // Closed, silent past the header timeout, or reset before saying which protocol it speaks.
    function drop() {
      stop();
      socket.destroy();
    }
    function onData(chunk: Buffer) {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      const verdict = prefaceVerdictFromBytes(buffered);
      if (verdict === "undecided") return;
      stop();
      // Paused before the bytes go back, so the inner server reads them first and in order.
      socket.pause();
      socket.unshift(buffered);
      tracker.setKind(socket, verdict);
      if (verdict === "http2") {
        h2.emit("connection", socket);
      } else {
        http1.emit("connection", socket);
        socket.resume();
      }
    }
    socket.setTimeout(timeouts.headersMs);
    socket.on("data", onData);
    socket.once("end", drop);
    socket.once("timeout", drop);
    socket.once("error", drop);
  });

  // Node starts enforcing headersTimeout/requestTimeout when an http.Server starts listening;
  // the inner server never listens, so it is told when the front does.
  front.on("listening", () => http1.emit("listening"));
  // Malformed HTTP/1.1 is answered by whoever listens on the front (Fastify's clientError
  // handler), never without a socket to answer on.
  http1.on("clientError", (error: Error, socket: net.Socket) => {
    if (front.listenerCount("clientError") > 0) {
      front.emit("clientError", error, socket);
    } else {
      socket.destroy();
    }
  });
  front.on("close", () => {
    http1.close();
    h2.close();
  });
  return front;
}
