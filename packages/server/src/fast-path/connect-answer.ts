import type { OutgoingHttpHeaders } from "node:http";
import { base64Decode } from "@bufbuild/protobuf/wire";
import type { Interceptor } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import type { Compression } from "@connectrpc/connect/protocol";
import {
  codeFromHttpStatus,
  codeToHttpStatus,
  codeToString,
  errorFromJsonBytes,
  errorToJsonBytes,
  trailerMux,
} from "@connectrpc/connect/protocol-connect";
import { clientFaultFromError } from "../rpc-outcome.js";
import type { Answer } from "./answer.js";
import { addCallHeaders, addHeaders } from "./answer.js";
import type { BodyReader } from "./body-reader.js";
import { readUnaryBody } from "./body-reader.js";
import type { UnaryCall } from "./unary-call.js";
import { invokeUnary } from "./unary-call.js";

/** Connect's default: responses under 1 KiB are never compressed. */
export const compressMinBytes = 1024;

/** What a Connect unary call needs besides the call itself. */
export interface ConnectCallInput {
  readonly call: UnaryCall;
  /** Binary (`application/proto`) or JSON. */
  readonly binary: boolean;
  /** The request body (POST), or undefined for GET. */
  readonly reader: BodyReader | undefined;
  /** The query of a GET request. */
  readonly query: URLSearchParams | undefined;
  /** The request's `content-length`. */
  readonly contentLength: string | null;
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
 * Serves one Connect unary call (POST or GET) the way Connect's handler and the server's
 * outcome wrapper do together: the same checks in the same order, the same JSON error body
 * with `details`, headers and trailers (`trailer-` prefixed), compression of responses of at
 * least 1 KiB, and a request that is not a valid message answered `invalid_argument`.
 */
export async function answerConnect(input: ConnectCallInput): Promise<Answer> {
  const { call, binary, compression } = input;
  const { serialization } = call.route;
  let status = 200;
  let body: Uint8Array;
  let error: ConnectError | undefined;
  try {
    if (compression.error) throw compression.error;
    if (input.timeoutError) throw input.timeoutError;
    let bytes =
      input.reader === undefined
        ? messageFromQuery(input.query as URLSearchParams, call.route.handler.method.input.typeName)
        : await readUnaryBody(input.reader, input.readMaxBytes, input.contentLength);
    if (compression.request)
      bytes = await compression.request.decompress(bytes, input.readMaxBytes);
    const message = serialization.getI(binary).parse(bytes);
    const output = await invokeUnary(call, message, input.interceptors);
    body = serialization.getO(binary).serialize(output);
  } catch (thrown) {
    call.signal.abort(thrown);
    error =
      thrown instanceof ConnectError
        ? thrown
        : new ConnectError("internal error", Code.Internal, undefined, undefined, thrown);
    status = codeToHttpStatus(error.code);
    const header = call.responseHeader;
    header.set("content-type", "application/json");
    error.metadata.forEach((value, name) => {
      header.set(name, value);
    });
    body = errorToJsonBytes(error, {});
  } finally {
    call.signal.end();
  }
  if (compression.response && body.byteLength >= compressMinBytes) {
    body = await compression.response.compress(body);
    call.responseHeader.set("content-encoding", compression.response.name);
  }
  let headers: OutgoingHttpHeaders;
  if (!call.responseTrailer.loaded) {
    headers = addCallHeaders({}, call.responseHeader);
  } else {
    headers = addHeaders({}, trailerMux(call.responseHeader, call.responseTrailer));
  }
  headers["content-length"] = String(body.byteLength);
  if (error === undefined) return { status, headers, body, trailers: undefined, code: "ok" };
  if (headers["content-encoding"] !== undefined) {
    return {
      status,
      headers,
      body,
      trailers: undefined,
      code: codeToString(codeFromHttpStatus(status)),
    };
  }
  // What the client will read back, exactly as the server's outcome wrapper reads it.
  const sent = errorFromJsonBytes(body, undefined, new ConnectError("", Code.Unknown));
  const corrected = clientFaultFromError(sent, call.route.handler);
  if (corrected === undefined) {
    return { status, headers, body, trailers: undefined, code: codeToString(sent.code) };
  }
  const correctedBody = errorToJsonBytes(corrected, {});
  headers["content-length"] = String(correctedBody.byteLength);
  return {
    status: codeToHttpStatus(corrected.code),
    headers,
    body: correctedBody,
    trailers: undefined,
    code: codeToString(corrected.code),
  };
}

/** The request message of a Connect GET: `message`, base64url when `base64=1`. */
function messageFromQuery(query: URLSearchParams, typeName: string): Uint8Array {
  const message = query.get("message") ?? "";
  if (query.get("base64") !== "1") return new TextEncoder().encode(message);
  try {
    return base64Decode(message);
  } catch {
    // The same answer as the outcome wrapper of the connect-es path gives.
    throw new ConnectError(
      `the message query parameter of a ${typeName} GET request is not valid base64`,
      Code.InvalidArgument,
    );
  }
}
