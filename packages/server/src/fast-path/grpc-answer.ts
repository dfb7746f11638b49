import type { Message } from "@bufbuild/protobuf";
import type { Interceptor } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import type { Compression, Serialization } from "@connectrpc/connect/protocol";
import { codeToString } from "@connectrpc/connect/protocol-connect";
import { findTrailerError, setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import { trailerFlag, trailerSerialize } from "@connectrpc/connect/protocol-grpc-web";
import { clientFaultFromError } from "../rpc-outcome.js";
import type { Answer } from "./answer.js";
import { addCallHeaders } from "./answer.js";
import type { BodyReader } from "./body-reader.js";
import { readEnvelope } from "./body-reader.js";
import { compressMinBytes } from "./connect-answer.js";
import type { UnaryCall } from "./unary-call.js";
import { invokeUnary } from "./unary-call.js";

/** The compressed-message flag of an envelope (gRPC, gRPC-web and Connect streams). */
const compressedFlag = 0b00000001;

/** What a gRPC or gRPC-web unary call needs besides the call itself. */
export interface GrpcCallInput {
  readonly call: UnaryCall;
  /** gRPC-web: trailers travel in the body; envelopes flagged as trailers are skipped. */
  readonly web: boolean;
  readonly reader: BodyReader;
  readonly compression: {
    readonly request: Compression | null;
    readonly response: Compression | null;
    readonly error?: ConnectError;
  };
  readonly timeoutError: ConnectError | undefined;
  readonly interceptors: readonly Interceptor[];
  readonly readMaxBytes: number;
}

/**
 * Serves one gRPC or gRPC-web unary call the way Connect's handlers and the server's outcome
 * wrapper do together: exactly one request message (missing or extra ones are `unimplemented`),
 * size limits, compressed envelopes, `grpc-status`, `grpc-message` and
 * `grpc-status-details-bin` in the trailers (gRPC) or the trailer frame (gRPC-web), and a
 * request that is not a valid message answered `invalid_argument`.
 */
export async function answerGrpc(input: GrpcCallInput): Promise<Answer> {
  const { call, compression } = input;
  const response = compression.response;
  let message: Uint8Array | undefined;
  let failed = false;
  try {
    if (compression.error) throw compression.error;
    if (input.timeoutError) throw input.timeoutError;
    const request = await readSingleMessage(input);
    const output = await invokeUnary(call, request, input.interceptors);
    let data = call.route.serialization.getO(true).serialize(output);
    let flags = 0;
    if (response && !input.web && data.byteLength >= compressMinBytes) {
      data = await response.compress(data);
      flags = compressedFlag;
    }
    message = frame(flags, data);
  } catch (thrown) {
    failed = true;
    call.signal.abort(thrown);
    setTrailerStatus(
      call.responseTrailer,
      thrown instanceof ConnectError
        ? thrown
        : new ConnectError("internal error", Code.Internal, undefined, undefined, thrown),
    );
  } finally {
    call.signal.end();
  }
  if (
    message !== undefined &&
    response &&
    input.web &&
    message.byteLength - 5 >= compressMinBytes
  ) {
    // gRPC-web compresses after the point where failures turn into trailers.
    message = frame(compressedFlag, await response.compress(message.subarray(5)));
  }
  const headers = addCallHeaders({}, call.responseHeader);
  if (!input.web) {
    const code = settle(call, failed);
    const trailers = addCallHeaders({}, call.responseTrailer);
    return { status: 200, headers, body: message ?? empty, trailers, code };
  }
  let trailer = call.responseTrailer.loaded ? trailerSerialize(call.responseTrailer) : okTrailer;
  let trailerFrame: Uint8Array;
  let code: string | undefined;
  if (response && trailer.byteLength >= compressMinBytes) {
    // The outcome wrapper cannot read a compressed trailer frame, so it neither corrects nor
    // records it.
    trailerFrame = frame(trailerFlag | compressedFlag, await response.compress(trailer));
  } else {
    code = settle(call, failed);
    if (call.responseTrailer.loaded) trailer = trailerSerialize(call.responseTrailer);
    trailerFrame = frame(trailerFlag, trailer);
  }
  return {
    status: 200,
    headers,
    body: message === undefined ? trailerFrame : concat(message, trailerFrame),
    trailers: undefined,
    code,
  };
}

const empty = new Uint8Array(0);
/** The gRPC-web trailer of a call that succeeded and set no trailers. */
const okTrailer = new TextEncoder().encode("grpc-status: 0\r\n");

/**
 * The outcome wrapper's view of the final trailers: the code for the log, with an `internal`
 * that blames the server for a malformed request corrected to `invalid_argument` in place.
 */
function settle(call: UnaryCall, failed: boolean): string {
  const trailer = call.responseTrailer;
  if (!trailer.loaded && !failed) return "ok";
  const error = findTrailerError(trailer);
  if (error === undefined) return "ok";
  const corrected = clientFaultFromError(error, call.route.handler);
  if (corrected !== undefined) setTrailerStatus(trailer, corrected);
  return codeToString((corrected ?? error).code);
}

async function readSingleMessage(input: GrpcCallInput): Promise<Message> {
  const parser = input.call.route.serialization.getI(true);
  const first = await nextMessage(input, parser);
  if (first === undefined) {
    throw new ConnectError(
      "protocol error: missing input message for unary method",
      Code.Unimplemented,
    );
  }
  if ((await nextMessage(input, parser)) !== undefined) {
    throw new ConnectError(
      "protocol error: received extra input message for unary method",
      Code.Unimplemented,
    );
  }
  return first;
}

async function nextMessage(
  input: GrpcCallInput,
  parser: Serialization<Message>,
): Promise<Message | undefined> {
  for (;;) {
    const envelope = await readEnvelope(input.reader, input.readMaxBytes);
    if (envelope === undefined) return undefined;
    let { flags, data } = envelope;
    if ((flags & compressedFlag) === compressedFlag) {
      if (!input.compression.request) {
        throw new ConnectError(
          "received compressed envelope, but do not know how to decompress",
          Code.Internal,
        );
      }
      data = await input.compression.request.decompress(data, input.readMaxBytes);
      flags ^= compressedFlag;
    }
    if (input.web && (flags & trailerFlag) === trailerFlag) continue;
    return parser.parse(data);
  }
}

function frame(flags: number, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + data.byteLength);
  out[0] = flags;
  const length = data.byteLength;
  out[1] = (length >>> 24) & 0xff;
  out[2] = (length >>> 16) & 0xff;
  out[3] = (length >>> 8) & 0xff;
  out[4] = length & 0xff;
  out.set(data, 5);
  return out;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a, 0);
  out.set(b, a.byteLength);
  return out;
}
