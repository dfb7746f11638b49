import http2 from "node:http2";
import type { TLSSocket } from "node:tls";
import type { RequestHandler } from "./connection-router.js";
import type { ConnectionTracker } from "./connection-tracker.js";
import type { FastPath } from "./fast-path/fast-path.js";
import { installFastPath } from "./fast-path/install-fast-path.js";
import type { ResolvedServerOptions, TlsOptions } from "./server-options.js";

/** Options of `createTlsServer`. */
export interface TlsServerOptions {
  /** Certificate and key. */
  readonly tls: TlsOptions;
  /** Receives every request of both HTTP versions. */
  readonly handler: RequestHandler;
  /** Timeouts: the header timeout bounds the TLS handshake and idle sockets. */
  readonly timeouts: ResolvedServerOptions["timeouts"];
  /** Learns about every socket, session and request, for graceful shutdown. */
  readonly tracker: ConnectionTracker;
  /** Offered every request first; what it declines goes to `handler`. Default: none. */
  readonly fastPath?: FastPath;
}

/**
 * An HTTPS server where ALPN picks h2 or http/1.1 per connection (`allowHTTP1`), so TLS clients
 * of both versions share the port without any byte sniffing.
 */
export function createTlsServer(options: TlsServerOptions): http2.Http2SecureServer {
  const { tls, handler, timeouts, tracker } = options;
  const server = http2.createSecureServer(
    {
      cert: tls.cert,
      key: tls.key,
      allowHTTP1: true,
      handshakeTimeout: timeouts.headersMs,
      settings: { maxConcurrentStreams: 256 },
    },
    (request, response) => {
      tracker.trackRequest(request, response);
      handler(request, response);
    },
  );
  // HTTP/1.1 over TLS runs on Node's compatibility layer, which knows no header or request
  // timeout: an idle socket is closed after the keep-alive timeout instead.
  server.setTimeout(timeouts.keepAliveMs);
  server.on("secureConnection", (socket: TLSSocket) => {
    tracker.addSocket(socket, socket.alpnProtocol === "h2" ? "http2" : "http1");
  });
  server.on("session", (session) => {
    tracker.addSession(session);
    session.setTimeout(timeouts.http2SessionMs, () => session.close());
  });
  server.on("sessionError", () => {});
  if (options.fastPath) {
    installFastPath({
      fastPath: options.fastPath,
      http1: server,
      http2: server,
      tracker,
      scheme: "https",
    });
  }
  return server;
}
