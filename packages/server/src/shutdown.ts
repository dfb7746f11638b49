import type { Server } from "node:net";
import type { ConnectionTracker } from "./connection-tracker.js";

/** Options of `installGracefulClose`. */
export interface GracefulCloseOptions {
  /** The connections of the server. */
  readonly tracker: ConnectionTracker;
  /** How long in-flight calls may take once closing started. */
  readonly timeoutMs: number;
  /** Called when `timeoutMs` passed with calls still in flight: abort them. */
  readonly onTimeout: () => void;
  /**
   * How long aborted calls get to send their error before every remaining socket is destroyed.
   * Default 1 000 ms.
   */
  readonly abortGraceMs?: number;
}

/**
 * Makes `server.close()` graceful, which is what Fastify calls on `app.close()`: stop
 * accepting, destroy idle connections, let in-flight calls finish (HTTP/1.1 responses carry
 * `Connection: close`, HTTP/2 sessions get GOAWAY), abort what is still running after
 * `timeoutMs`, and destroy what is left after the grace period. The callback runs when the last
 * connection is gone. Timers never keep the process alive on their own.
 */
export function installGracefulClose(server: Server, options: GracefulCloseOptions): void {
  const { tracker, timeoutMs, onTimeout, abortGraceMs = 1_000 } = options;
  const close = server.close.bind(server);
  server.close = (callback?: (error?: Error) => void) => {
    tracker.startDrain();
    const abortTimer = setTimeout(() => {
      onTimeout();
      setTimeout(() => tracker.destroyAll(), abortGraceMs).unref();
    }, timeoutMs);
    abortTimer.unref();
    close((error) => {
      clearTimeout(abortTimer);
      callback?.(error);
    });
    return server;
  };
}
