import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse, ServerHttp2Session } from "node:http2";
import { constants as http2Constants } from "node:http2";
import type { Socket } from "node:net";

/** What a tracked socket speaks: not known yet, HTTP/1.1, or HTTP/2 (then its session is tracked). */
export type SocketKind = "pending" | "http1" | "http2";

/** A request/response pair of either HTTP version, as the server's request listener sees it. */
export type AnyRequest = IncomingMessage | Http2ServerRequest;
/** See `AnyRequest`. */
export type AnyResponse = ServerResponse | Http2ServerResponse;

/**
 * Knows every open connection, HTTP/2 session and in-flight request of one server, so that a
 * shutdown can drain them: idle sockets are destroyed, in-flight HTTP/1.1 responses go out with
 * `Connection: close`, HTTP/2 sessions get GOAWAY.
 */
export interface ConnectionTracker {
  /** Registers an accepted socket; it is forgotten when it closes. */
  addSocket(socket: Socket, kind: SocketKind): void;
  /** Records what a socket turned out to speak. */
  setKind(socket: Socket, kind: SocketKind): void;
  /** Registers an HTTP/2 session; it is forgotten when it closes. */
  addSession(session: ServerHttp2Session): void;
  /** Counts a request as in flight until its response closes. */
  trackRequest(request: AnyRequest, response: AnyResponse): void;
  /** Requests currently in flight. */
  inFlight(): number;
  /** True once `startDrain` was called. */
  readonly draining: boolean;
  /** Begins the shutdown: closes what is idle, asks everything else to finish and close. */
  startDrain(): void;
  /** Destroys every socket and session still open. */
  destroyAll(): void;
}

interface SocketState {
  kind: SocketKind;
  readonly responses: Set<AnyResponse>;
}

/** Creates an empty tracker. */
export function createConnectionTracker(): ConnectionTracker {
  const sockets = new Map<Socket, SocketState>();
  const sessions = new Set<ServerHttp2Session>();
  let inFlight = 0;
  let draining = false;

  // end() flushes what the last response wrote before the socket goes away.
  const endIfIdle = (socket: Socket, state: SocketState) => {
    if (state.kind !== "http2" && state.responses.size === 0) socket.end(() => socket.destroy());
  };

  return {
    addSocket(socket, kind) {
      sockets.set(socket, { kind, responses: new Set() });
      socket.once("close", () => sockets.delete(socket));
      if (draining && kind === "pending") socket.destroy();
    },
    setKind(socket, kind) {
      const state = sockets.get(socket);
      if (state) state.kind = kind;
    },
    addSession(session) {
      sessions.add(session);
      session.once("close", () => sessions.delete(session));
      if (draining) session.close();
    },
    trackRequest(request, response) {
      inFlight++;
      const state = request.httpVersionMajor === 1 ? sockets.get(request.socket) : undefined;
      if (state) {
        state.responses.add(response);
        if (draining) response.setHeader("connection", "close");
      }
      // Answered before the request body was read (too large, refused): on HTTP/1.1 the rest
      // must not be parsed as a next request, so the connection closes; on HTTP/2 the stream is
      // reset once the answer is out, or a client blocked on flow control would keep it, and its
      // session, open forever. CANCEL rather than the gentler NO_ERROR of RFC 9113 section 8.1:
      // Node defers a NO_ERROR reset until the stream's writable side finishes, which here it
      // never does.
      const socket: Socket | null | undefined = request.socket;
      const stream =
        request.httpVersionMajor === 2 ? (request as Http2ServerRequest).stream : undefined;
      if (stream) {
        const resetIfUnread = () => {
          if (!stream.destroyed && !stream.readableEnded) {
            stream.close(http2Constants.NGHTTP2_CANCEL);
          }
        };
        // The compatibility layer submits the trailers in its own, earlier listener; the reset
        // follows them.
        stream.once("wantTrailers", () => setImmediate(resetIfUnread));
        response.once("finish", () => setImmediate(resetIfUnread));
      } else {
        if (socket) closeGracefullyIfBodyUnread(socket, request);
        response.once("finish", () => {
          if (request.complete === false && socket) lingeringClose(socket);
        });
      }
      response.once("close", () => {
        inFlight--;
        if (!state) return;
        state.responses.delete(response);
        if (draining) endIfIdle(request.socket, state);
      });
    },
    inFlight: () => inFlight,
    get draining() {
      return draining;
    },
    startDrain() {
      draining = true;
      for (const session of sessions) session.close();
      for (const [socket, state] of sockets) {
        for (const response of state.responses) {
          if (!response.headersSent) response.setHeader("connection", "close");
        }
        endIfIdle(socket, state);
      }
    },
    destroyAll() {
      for (const session of sessions) session.destroy();
      for (const socket of sockets.keys()) socket.destroy();
    },
  };
}

/** How long a connection answered before its body was read keeps reading after its FIN. */
const lingerMs = 2000;

/**
 * Closes a connection whose request body is still arriving without resetting it: destroying a
 * socket with unread data makes the kernel send RST, which can wipe out the answer before the
 * client reads it (RFC 9112 section 9.6). So: send FIN after the answer, keep reading and
 * discarding until the client closes or a short linger time passes, then destroy.
 */
function lingeringClose(socket: Socket): void {
  if (socket.destroyed) return;
  socket.end();
  socket.resume();
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once("end", () => socket.destroy());
  socket.once("close", () => clearTimeout(timer));
}

/** The request each patched socket is serving now. */
const currentRequest = new WeakMap<Socket, AnyRequest>();

/**
 * Node's HTTP server ends a `Connection: close` exchange with `socket.destroySoon()`, which
 * destroys the socket as soon as the answer is flushed; while the request body is unread that
 * is the RST case above, so for such a request it lingers instead. Patched once per socket.
 */
function closeGracefullyIfBodyUnread(socket: Socket, request: AnyRequest): void {
  const patched = currentRequest.has(socket);
  currentRequest.set(socket, request);
  if (patched) return;
  const target = socket as Socket & { destroySoon?: () => void };
  const original = target.destroySoon;
  if (typeof original !== "function") return;
  target.destroySoon = function destroySoon(this: Socket) {
    if (currentRequest.get(this)?.complete === false) lingeringClose(this);
    else original.call(this);
  };
}
