import * as http from "node:http";
import * as http2 from "node:http2";
import type { AddressInfo, Socket } from "node:net";
import * as net from "node:net";
import type { ConnectRouter } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";

/** A test server speaking every protocol on one port, for routes written without the SDK. */
export interface RouteServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Options of `startRouteServer`. */
export interface RouteServerOptions {
  /** Largest request accepted. Default 1 MiB. */
  readonly readMaxBytes?: number;
  /**
   * Simulates a plugin process that dies on garbage: the first request body holding a run of
   * 0xff bytes closes the listener and every connection, as a crashed process would.
   */
  readonly crashOnGarbage?: boolean;
}

const garbageRun = Buffer.alloc(16, 0xff);
const preface = Buffer.from("PRI * HTTP/2.0");

/**
 * Serves Connect routes over HTTP/1.1 and HTTP/2 cleartext on one port of 127.0.0.1, picking
 * the inner server by the first bytes of each connection.
 */
export async function startRouteServer(
  routes: (router: ConnectRouter) => void,
  options: RouteServerOptions = {},
): Promise<RouteServer> {
  const sockets = new Set<Socket>();
  const adapter = connectNodeAdapter({ routes, readMaxBytes: options.readMaxBytes ?? 1024 * 1024 });
  let front: net.Server;
  const crash = () => {
    front.close();
    for (const socket of sockets) socket.destroy();
  };
  const handler = (
    request: http.IncomingMessage | http2.Http2ServerRequest,
    response: http.ServerResponse | http2.Http2ServerResponse,
  ) => {
    if (options.crashOnGarbage) {
      const original = request[Symbol.asyncIterator].bind(request);
      Object.defineProperty(request, Symbol.asyncIterator, {
        value: async function* () {
          for await (const chunk of original()) {
            if (Buffer.from(chunk as Uint8Array).includes(garbageRun)) crash();
            yield chunk;
          }
        },
      });
    }
    adapter(request as http.IncomingMessage, response as http.ServerResponse);
  };
  const h1 = http.createServer(handler);
  const h2 = http2.createServer(handler);
  h2.on("sessionError", () => {});
  front = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    socket.once("data", (chunk: Buffer) => {
      socket.pause();
      socket.unshift(chunk);
      if (chunk.subarray(0, preface.length).equals(preface)) {
        h2.emit("connection", socket);
      } else {
        h1.emit("connection", socket);
        socket.resume();
      }
    });
  });
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  const { port } = front.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => front.close(() => resolve()));
    },
  };
}
