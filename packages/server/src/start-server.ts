import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { buildAppFromResolved } from "./build-app.js";
import type { ServerOptions } from "./server-options.js";
import { resolveServerOptions } from "./server-options.js";

/** A listening server. */
export interface RunningServer {
  /** Base URL of the server, e.g. `http://127.0.0.1:8080` (`https` with TLS). */
  readonly url: string;
  /** The port actually bound (the ephemeral one when 0 was asked for). */
  readonly port: number;
  /** The interface bound. */
  readonly host: string;
  /** The Fastify app (for `inject`, `printRoutes`, decorators). */
  readonly app: FastifyInstance;
  /**
   * Graceful shutdown: stops accepting, lets in-flight calls finish (at most
   * `shutdownTimeoutMs`, then they are aborted with `unavailable`), closes every connection,
   * then calls `plugin.close()` and `onClose`. Calling it again returns the same promise.
   */
  close(): Promise<void>;
}

/** Builds the app and listens on `host:port` (default `127.0.0.1:0`). */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const resolved = resolveServerOptions(options);
  const app = await buildAppFromResolved(resolved);
  const scheme = resolved.tls ? "https" : "http";
  try {
    await app.listen({
      host: resolved.host,
      port: resolved.port,
      listenTextResolver: (address) => `listening at ${address.replace(/^https?:/, `${scheme}:`)}`,
    });
  } catch (error) {
    await app.close();
    throw error;
  }
  const { port } = app.server.address() as AddressInfo;
  const urlHost = resolved.host.includes(":") ? `[${resolved.host}]` : resolved.host;
  let closing: Promise<void> | undefined;
  return {
    url: `${scheme}://${urlHost}:${port}`,
    port,
    host: resolved.host,
    app,
    close: () => {
      closing ??= app.close();
      return closing;
    },
  };
}
