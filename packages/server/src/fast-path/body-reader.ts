import type { Readable } from "node:stream";
import { Code, ConnectError } from "@connectrpc/connect";

/** The request body ended or broke before it was complete. */
function bodyBroken(): Error {
  return new Error("the request body was not received completely");
}

/**
 * Reads a request body chunk by chunk from a Node stream (an HTTP/2 stream or an HTTP/1.1
 * request) with plain events: no async iterator, no generator. The owner reports a body that
 * broke off (`fail`), having its own close and error listeners anyway. Stops listening on
 * `stop()`; whatever arrives afterwards is discarded, so the connection stays usable.
 */
export class BodyReader {
  readonly #source: Readable;
  readonly #chunks: Buffer[] = [];
  #buffered = 0;
  #ended = false;
  #failure: Error | undefined;
  #wake: (() => void) | undefined;

  /** Starts reading `source` at once. */
  constructor(source: Readable) {
    this.#source = source;
    source.on("data", this.#onData);
    source.on("end", this.#onEnd);
  }

  readonly #onData = (chunk: Buffer) => {
    this.#chunks.push(chunk);
    this.#buffered += chunk.byteLength;
    this.#notify();
  };

  readonly #onEnd = () => {
    this.#ended = true;
    this.#notify();
  };

  /** The body broke off (the stream closed or failed before its end). */
  fail(error: Error = bodyBroken()): void {
    if (this.#ended) return;
    this.#failure ??= error;
    this.#notify();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #waitForMore(): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = resolve;
    });
  }

  /** Bytes received and not consumed yet. */
  get buffered(): number {
    return this.#buffered;
  }

  /**
   * Waits until `count` bytes are buffered (resolves true) or the body ended first (resolves
   * false). Rejects when the body broke off.
   */
  async waitFor(count: number): Promise<boolean> {
    while (this.#buffered < count) {
      if (this.#failure) throw this.#failure;
      if (this.#ended) return false;
      await this.#waitForMore();
    }
    return true;
  }

  /** Waits for the end of the body; rejects when it broke off. */
  async waitForEnd(): Promise<void> {
    while (!this.#ended) {
      if (this.#failure) throw this.#failure;
      await this.#waitForMore();
    }
  }

  /** Waits for the next chunk or the end; resolves false at the end. */
  async waitForChunk(): Promise<boolean> {
    const before = this.#buffered;
    while (this.#buffered === before) {
      if (this.#failure) throw this.#failure;
      if (this.#ended) return false;
      await this.#waitForMore();
    }
    return true;
  }

  /** Takes exactly `count` buffered bytes (the caller checked they are there). */
  take(count: number): Uint8Array {
    const first = this.#chunks[0];
    if (first !== undefined && first.byteLength === count) {
      this.#chunks.shift();
      this.#buffered -= count;
      return first;
    }
    if (first !== undefined && first.byteLength > count) {
      this.#chunks[0] = first.subarray(count);
      this.#buffered -= count;
      return first.subarray(0, count);
    }
    const out = new Uint8Array(count);
    let offset = 0;
    while (offset < count) {
      const chunk = this.#chunks.shift() as Buffer;
      const wanted = count - offset;
      if (chunk.byteLength > wanted) {
        out.set(chunk.subarray(0, wanted), offset);
        this.#chunks.unshift(chunk.subarray(wanted));
        offset = count;
      } else {
        out.set(chunk, offset);
        offset += chunk.byteLength;
      }
    }
    this.#buffered -= count;
    return out;
  }

  /** Takes everything buffered. */
  takeAll(): Uint8Array {
    return this.take(this.#buffered);
  }

  /** Stops listening; the rest of the body is read and dropped. */
  stop(): void {
    const source = this.#source;
    source.off("data", this.#onData);
    source.off("end", this.#onEnd);
    this.#chunks.length = 0;
    this.#buffered = 0;
    if (!this.#ended) source.resume();
  }
}

function readMaxBytesError(size: number | undefined, readMaxBytes: number): ConnectError {
  return new ConnectError(
    size === undefined
      ? `message size is larger than configured readMaxBytes ${readMaxBytes}`
      : `message size ${size} is larger than configured readMaxBytes ${readMaxBytes}`,
    Code.ResourceExhausted,
  );
}

/** Connect's reading of a `content-length` value: `parseInt`, valid when a safe integer >= 0. */
function lengthHint(value: string | null): number | undefined {
  if (value === null) return undefined;
  const n = Number.parseInt(value, 10);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/**
 * The whole body of a Connect unary request, with Connect's limits and messages: a declared
 * `content-length` over `readMaxBytes` fails before anything is read, a body longer or shorter
 * than declared is a protocol error, an undeclared body fails as soon as it passes the limit.
 */
export async function readUnaryBody(
  reader: BodyReader,
  readMaxBytes: number,
  contentLength: string | null,
): Promise<Uint8Array> {
  const hint = lengthHint(contentLength);
  if (hint !== undefined) {
    if (hint > readMaxBytes) throw readMaxBytesError(hint, readMaxBytes);
    while (reader.buffered <= hint && (await reader.waitForChunk())) {
      // keep reading until the end, or until more than promised arrived
    }
    if (reader.buffered !== hint) {
      throw new ConnectError(
        `protocol error: promised ${hint} bytes, received ${reader.buffered}`,
        Code.InvalidArgument,
      );
    }
    return reader.takeAll();
  }
  for (;;) {
    if (reader.buffered > readMaxBytes) throw readMaxBytesError(undefined, readMaxBytes);
    if (!(await reader.waitForChunk())) return reader.takeAll();
  }
}

/** One length-prefixed message of gRPC and gRPC-web. */
export interface Envelope {
  readonly flags: number;
  readonly data: Uint8Array;
}

/**
 * The next envelope of a gRPC or gRPC-web request body, or undefined at a clean end. Fails like
 * Connect's envelope decoder: a declared length over `readMaxBytes` as soon as the prefix
 * arrives, an envelope cut off by the end of the body as `incomplete envelope`.
 */
export async function readEnvelope(
  reader: BodyReader,
  readMaxBytes: number,
): Promise<Envelope | undefined> {
  if (!(await reader.waitFor(5))) {
    if (reader.buffered > 0) throw incompleteEnvelope();
    return undefined;
  }
  const prefix = reader.take(5);
  const flags = prefix[0] as number;
  const length =
    (((prefix[1] as number) << 24) >>> 0) +
    ((prefix[2] as number) << 16) +
    ((prefix[3] as number) << 8) +
    (prefix[4] as number);
  if (length > readMaxBytes) throw readMaxBytesError(length, readMaxBytes);
  if (!(await reader.waitFor(length))) throw incompleteEnvelope();
  return { flags, data: length === 0 ? new Uint8Array(0) : reader.take(length) };
}

function incompleteEnvelope(): ConnectError {
  return new ConnectError("protocol error: incomplete envelope", Code.InvalidArgument);
}
