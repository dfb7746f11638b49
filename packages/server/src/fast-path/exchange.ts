import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { ServerHttp2Stream } from "node:http2";
import { constants as http2Constants } from "node:http2";
import type { Readable } from "node:stream";
import { Code, ConnectError } from "@connectrpc/connect";
import type { Answer } from "./answer.js";

/**
 * One request/response exchange of either HTTP version, as the fast path sees it: where the body
 * comes from, how the answer is written, and when the exchange is over.
 */
export interface Exchange {
  /** The request body. */
  readonly source: Readable;
  /** `2.0` or `1.1`, for the log line. */
  readonly httpVersion: string;
  readonly httpVersionMajor: number;
  /** Whether the request body was received completely. */
  readonly bodyComplete: () => boolean;
  /** `:authority` or `Host`. */
  readonly authority: string;
  /** Path and query as sent. */
  readonly path: string;
  /** `POST` or `GET`. */
  readonly requestMethod: string;
  /**
   * Starts watching the exchange: `gone` runs if the client goes away before the answer was
   * written; `done` runs with the HTTP status when the exchange is over, at the moment the
   * normal path's `onResponse` hook would (an HTTP/1.1 response finished, an HTTP/2 stream
   * closed, answered or not).
   */
  watch(gone: (reason: unknown) => void, done: (status: number) => void): void;
  /** Writes the answer, preceded by `extra` headers (request id, CORS). */
  write(answer: Answer, extra: Record<string, string>): void;
  /** Gives up on a request the fast path could not answer (an internal failure). */
  fail(): void;
}

function ignore(): void {}

/** The reason a call's signal gets when its client went away without an HTTP/2 error code. */
function clientGone(): DOMException {
  return new DOMException("This operation was aborted", "AbortError");
}

/** An HTTP/2 stream served on the raw stream API (no compatibility-layer objects). */
export class Http2Exchange implements Exchange {
  readonly httpVersion = "2.0";
  readonly httpVersionMajor = 2;
  readonly source: ServerHttp2Stream;
  readonly authority: string;
  readonly path: string;
  readonly requestMethod: string;
  #written = false;
  #status = 200;

  constructor(stream: ServerHttp2Stream, method: string, path: string, authority: string) {
    this.source = stream;
    this.requestMethod = method;
    this.path = path;
    this.authority = authority;
    // A stream reset by the client emits errors nobody else would handle.
    stream.on("error", ignore);
  }

  readonly bodyComplete = (): boolean => this.source.readableEnded || this.source.destroyed;

  watch(gone: (reason: unknown) => void, done: (status: number) => void): void {
    const stream = this.source;
    stream.on("close", () => {
      if (!this.#written) gone(errorFromResetCode(stream.rstCode) ?? clientGone());
      done(this.#status);
    });
  }

  write(answer: Answer, extra: Record<string, string>): void {
    this.#written = true;
    const stream = this.source;
    if (stream.destroyed || stream.closed) return;
    this.#status = answer.status;
    const head: OutgoingHttpHeaders = extra;
    head[":status"] = answer.status;
    for (const name in answer.headers) head[name] = answer.headers[name];
    const unread = !stream.readableEnded;
    try {
      const trailers = answer.trailers;
      if (trailers !== undefined) {
        stream.respond(head, { waitForTrailers: true });
        stream.once("wantTrailers", () => {
          stream.sendTrailers(trailers);
          if (unread) resetIfUnread(stream);
        });
        stream.end(answer.body);
      } else {
        stream.respond(head);
        if (unread) stream.end(answer.body, () => resetIfUnread(stream));
        else stream.end(answer.body);
      }
    } catch {
      // The session went away between the check and the write: nobody is listening.
      stream.destroy();
    }
  }

  fail(): void {
    this.#written = true;
    this.source.close(http2Constants.NGHTTP2_INTERNAL_ERROR);
  }
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

/** An HTTP/1.1 request answered on Node's own response object. */
export class Http1Exchange implements Exchange {
  readonly httpVersion: string;
  readonly httpVersionMajor: number;
  readonly source: IncomingMessage;
  readonly response: ServerResponse;
  readonly authority: string;
  readonly path: string;
  readonly requestMethod: string;
  #written = false;

  constructor(request: IncomingMessage, response: ServerResponse, path: string, authority: string) {
    this.source = request;
    this.response = response;
    this.httpVersion = request.httpVersion;
    this.httpVersionMajor = request.httpVersionMajor;
    this.requestMethod = request.method as string;
    this.path = path;
    this.authority = authority;
    request.on("error", ignore);
    response.on("error", ignore);
  }

  readonly bodyComplete = (): boolean => this.source.complete;

  watch(gone: (reason: unknown) => void, done: (status: number) => void): void {
    const { source: request, response } = this;
    response.on("close", () => {
      if (!this.#written) {
        gone(request.errored ? errorFromNodeReason(request.errored) : clientGone());
      }
    });
    response.on("finish", () => done(response.statusCode));
  }

  write(answer: Answer, extra: Record<string, string>): void {
    this.#written = true;
    const response = this.response;
    if (response.destroyed) return;
    const head: OutgoingHttpHeaders = extra;
    for (const name in answer.headers) head[name] = answer.headers[name];
    // Answered before the body was read (too large, refused): the rest of it must not be
    // parsed as the next request, as on the normal path.
    if (!this.source.complete) head.connection = "close";
    response.writeHead(answer.status, head);
    response.end(answer.body);
  }

  fail(): void {
    this.#written = true;
    this.response.destroy();
  }
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
