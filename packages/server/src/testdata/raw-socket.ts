import net from "node:net";
import { setImmediate as nextTurn } from "node:timers/promises";

/** A raw TCP connection to 127.0.0.1 that collects everything it receives. */
export interface RawConnection {
  readonly socket: net.Socket;
  /** Everything received so far. */
  received(): Buffer;
  /** Resolves once `predicate` holds for the bytes received (or rejects when the socket closes first). */
  waitFor(predicate: (received: Buffer) => boolean): Promise<Buffer>;
  /** Resolves when the server closed the connection, with everything received. */
  closed: Promise<Buffer>;
  /** Writes the chunks one after another, yielding to the event loop between them. */
  writeInPieces(...chunks: Array<string | Uint8Array>): Promise<void>;
}

/** Opens a raw connection to `port` on 127.0.0.1. */
export async function connectRaw(port: number): Promise<RawConnection> {
  const socket = net.connect({ port, host: "127.0.0.1", noDelay: true, allowHalfOpen: true });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  let buffer = Buffer.alloc(0);
  const listeners = new Set<() => void>();
  socket.on("data", (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (const listener of listeners) listener();
  });
  socket.on("error", () => {});
  // The server closed its side: close ours, so that `closed` settles.
  socket.on("end", () => socket.end());
  const closed = new Promise<Buffer>((resolve) => socket.once("close", () => resolve(buffer)));
  return {
    socket,
    received: () => buffer,
    closed,
    waitFor: (predicate) =>
      new Promise<Buffer>((resolve, reject) => {
        const check = () => {
          if (predicate(buffer)) {
            listeners.delete(check);
            resolve(buffer);
          }
        };
        listeners.add(check);
        check();
        void closed.then(() => {
          if (listeners.delete(check)) {
            if (predicate(buffer)) resolve(buffer);
            else reject(new Error(`connection closed after ${buffer.length} bytes: ${buffer.toString("latin1").slice(0, 200)}`));
          }
        });
      }),
    writeInPieces: async (...chunks) => {
      for (const chunk of chunks) {
        socket.write(chunk);
        await nextTurn();
        await nextTurn();
      }
    },
  };
}

/** How many complete HTTP/1.1 responses a byte string holds (by status lines). */
export function countStatusLines(bytes: Buffer): number {
  return bytes.toString("latin1").match(/HTTP\/1\.1 \d{3} /g)?.length ?? 0;
}
