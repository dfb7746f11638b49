import type { EventEmitter } from "node:events";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { ServerHttp2Stream } from "node:http2";
import type { AnyRequest, AnyResponse, ConnectionTracker } from "../connection-tracker.js";
import type { FastPath } from "./fast-path.js";

/** Options of `installFastPath`. */
export interface InstallFastPathOptions {
  readonly fastPath: FastPath;
  /** The server emitting HTTP/1.1 `request` events (may be the same as `http2`). */
  readonly http1?: EventEmitter;
  /** The server emitting HTTP/2 `stream` events. */
  readonly http2?: EventEmitter;
  /** Counts fast-path requests as in flight, like every other request. */
  readonly tracker: ConnectionTracker;
  /** `http` or `https`, for the request URL handlers see. */
  readonly scheme: string;
}

type StreamListener = (
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  flags: number,
  rawHeaders: string[],
) => void;
type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Puts the fast path in front of the listeners already installed on the servers: each HTTP/2
 * stream and each HTTP/1.1 request is offered to it first, and when it declines, the original
 * listeners (Node's HTTP/2 compatibility layer feeding Fastify, or Fastify's request handler)
 * get it exactly as before. Must run after those listeners were added.
 */
export function installFastPath(options: InstallFastPathOptions): void {
  const { fastPath, tracker, scheme } = options;
  if (options.http2 !== undefined) {
    const server = options.http2;
    const original = server.listeners("stream") as StreamListener[];
    server.removeAllListeners("stream");
    // The tracker counts the stream in flight until its `close`; the fast path itself resets a
    // stream answered before its body was read (see `http2Exchange`), so the tracker is given
    // only the HTTP version.
    const http2Request = { httpVersionMajor: 2 } as AnyRequest;
    server.on(
      "stream",
      (
        stream: ServerHttp2Stream,
        headers: IncomingHttpHeaders,
        flags: number,
        rawHeaders: string[],
      ) => {
        if (fastPath.handleStream(stream, headers, scheme)) {
          tracker.trackRequest(http2Request, stream as unknown as AnyResponse);
          return;
        }
        for (const listener of original) listener.call(server, stream, headers, flags, rawHeaders);
      },
    );
  }
  if (options.http1 !== undefined) {
    const server = options.http1;
    const original = server.listeners("request") as RequestListener[];
    server.removeAllListeners("request");
    server.on("request", (request: IncomingMessage, response: ServerResponse) => {
      if (request.httpVersionMajor === 1 && fastPath.handleRequest(request, response, scheme)) {
        tracker.trackRequest(request, response);
        return;
      }
      for (const listener of original) listener.call(server, request, response);
    });
  }
}
