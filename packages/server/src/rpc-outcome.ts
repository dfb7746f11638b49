import { Code, ConnectError } from "@connectrpc/connect";
import type {
  UniversalHandler,
  UniversalServerRequest,
  UniversalServerResponse,
} from "@connectrpc/connect/protocol";
import { createAsyncIterable, readAllBytes } from "@connectrpc/connect/protocol";
import {
  codeFromHttpStatus,
  codeToHttpStatus,
  codeToString,
  errorFromJsonBytes,
  errorToJsonBytes,
} from "@connectrpc/connect/protocol-connect";
import { findTrailerError, setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import { trailerFlag, trailerParse, trailerSerialize } from "@connectrpc/connect/protocol-grpc-web";
import { acceptedRpcContentTypes, unsupportedMediaTypeMessage } from "./content-types.js";
import type { RpcProtocol, RpcRecord } from "./rpc-record.js";
import { rpcProtocolFromRequest, rpcRecordKey } from "./rpc-record.js";

/**
 * Wraps a Connect universal handler so that every call leaves its outcome in the request's
 * `RpcRecord`, and so that answers which blame the server for the client's mistakes are
 * corrected: a request body that is not a valid message is `invalid_argument` (HTTP 400), not
 * `internal`, and bare 405/415 answers get a JSON body that says what is accepted.
 */
export function withRpcOutcome(handler: UniversalHandler): UniversalHandler {
  const wrapped = async (request: UniversalServerRequest): Promise<UniversalServerResponse> => {
    const protocol = rpcProtocolFromRequest(request.method, request.header.get("content-type"));
    const record = request.contextValues?.get(rpcRecordKey);
    if (record) {
      record.service = handler.service.typeName;
      record.method = handler.method.name;
      record.protocol = protocol;
    }
    const rejected = request.method === "GET" ? rejectMalformedGet(request, handler) : undefined;
    if (rejected) {
      if (record) record.code = rejected.code;
      return rejected.response;
    }
    const response = await handler(request);
    const outcome =
      response.status === 415 || response.status === 405
        ? explainRejection(response.status, request, handler)
        : protocol === "connect"
          ? await connectOutcome(response, handler, record)
          : envelopedOutcome(response, handler, protocol, record);
    return record ? closeIfBodyUnread(outcome, record) : outcome;
  };
  return Object.assign(wrapped, {
    protocolNames: handler.protocolNames,
    service: handler.service,
    method: handler.method,
    requestPath: handler.requestPath,
    allowedMethods: handler.allowedMethods,
    supportedContentType: handler.supportedContentType,
  });
}

/**
 * An HTTP/1.1 answer sent before the request body was read (too large, wrong type) closes the
 * connection: the rest of the body would otherwise stall the connection or be parsed as the
 * next request.
 */
function closeIfBodyUnread(
  response: UniversalServerResponse,
  record: RpcRecord,
): UniversalServerResponse {
  if (record.httpVersionMajor !== 1 || record.bodyComplete()) return response;
  const header = new Headers(response.header);
  header.set("connection", "close");
  return { ...response, header };
}

/** Base64 as Connect GET allows it: standard or URL-safe alphabet, padding optional. */
const base64Pattern = /^[A-Za-z0-9+/_-]*={0,2}$/;

/**
 * Checks a Connect GET's query before connect-es sees it: connect-es answers an unknown
 * `encoding` with a bare 415 and a `message` that is not base64 with `internal`, blaming the
 * server for the caller's mistake.
 */
function rejectMalformedGet(
  request: UniversalServerRequest,
  handler: UniversalHandler,
): { response: UniversalServerResponse; code: string } | undefined {
  const query = new URL(request.url, "http://localhost").searchParams;
  const encoding = query.get("encoding");
  if (encoding !== null && encoding !== "json" && encoding !== "proto") {
    const message = `Connect GET needs encoding=json or encoding=proto; got encoding=${JSON.stringify(encoding.slice(0, 64))}`;
    return {
      response: jsonRejection(415, "Unsupported Media Type", message),
      code: "unsupported_media_type",
    };
  }
  const body = query.get("message");
  if (query.get("base64") === "1" && body !== null) {
    const compact = body.replace(/=+$/, "");
    if (!base64Pattern.test(body) || compact.length % 4 === 1) {
      const error = new ConnectError(
        `the message query parameter of a ${handler.method.input.typeName} GET request is not valid base64`,
        Code.InvalidArgument,
      );
      const bytes = errorToJsonBytes(error, {});
      return {
        code: codeToString(error.code),
        response: {
          status: codeToHttpStatus(error.code),
          header: new Headers({
            "content-type": "application/json",
            "content-length": String(bytes.byteLength),
          }),
          body: createAsyncIterable([bytes]),
        },
      };
    }
  }
  return undefined;
}

/** The honest version of an error, when the error blames the server for a malformed request. */
export function clientFaultFromError(
  error: ConnectError,
  handler: UniversalHandler,
): ConnectError | undefined {
  if (error.code !== Code.Internal) return undefined;
  const invalid = /^parse binary: (.*)$/s.exec(error.rawMessage);
  if (invalid) {
    return new ConnectError(
      `request is not a valid ${handler.method.input.typeName} message: ${invalid[1]}`,
      Code.InvalidArgument,
    );
  }
  if (error.rawMessage.startsWith("received compressed envelope")) {
    return new ConnectError(
      "request message is flagged as compressed but no grpc-encoding was sent",
      Code.InvalidArgument,
    );
  }
  return undefined;
}

async function connectOutcome(
  response: UniversalServerResponse,
  handler: UniversalHandler,
  record: RpcRecord | undefined,
): Promise<UniversalServerResponse> {
  if (response.status === 200) {
    if (record) record.code = "ok";
    return response;
  }
  const header = new Headers(response.header);
  if (header.has("content-encoding") || response.body === undefined) {
    if (record) record.code = codeToString(codeFromHttpStatus(response.status));
    return response;
  }
  const bytes = await readAllBytes(response.body, Number.MAX_SAFE_INTEGER);
  const error = errorFromJsonBytes(bytes, undefined, new ConnectError("", Code.Unknown));
  const corrected = clientFaultFromError(error, handler);
  if (record) record.code = codeToString((corrected ?? error).code);
  if (!corrected) return { ...response, body: createAsyncIterable([bytes]) };
  const body = errorToJsonBytes(corrected, {});
  header.set("content-length", String(body.byteLength));
  return {
    status: codeToHttpStatus(corrected.code),
    header,
    body: createAsyncIterable([body]),
  };
}

function envelopedOutcome(
  response: UniversalServerResponse,
  handler: UniversalHandler,
  protocol: RpcProtocol,
  record: RpcRecord | undefined,
): UniversalServerResponse {
  const settle = (trailer: Headers) => {
    const error = findTrailerError(trailer);
    const corrected = error ? clientFaultFromError(error, handler) : undefined;
    if (corrected) setTrailerStatus(trailer, corrected);
    if (record) record.code = error ? codeToString((corrected ?? error).code) : "ok";
    return corrected !== undefined;
  };
  const body = response.body;
  if (body === undefined) return response;
  async function* observed(): AsyncIterable<Uint8Array> {
    for await (const chunk of body as AsyncIterable<Uint8Array>) {
      yield protocol === "grpc-web" ? settleGrpcWebTrailer(chunk, settle) : chunk;
    }
    if (protocol === "grpc" && response.trailer) settle(response.trailer);
  }
  return { ...response, body: observed() };
}

/** Applies `settle` to a gRPC-web trailer frame (one whole envelope per chunk) and re-encodes it. */
function settleGrpcWebTrailer(
  chunk: Uint8Array,
  settle: (trailer: Headers) => boolean,
): Uint8Array {
  const flags = chunk[0];
  if (flags === undefined || flags !== trailerFlag || chunk.byteLength < 5) return chunk;
  const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  const length = view.getUint32(1);
  if (length !== chunk.byteLength - 5) return chunk;
  const trailer = trailerParse(chunk.subarray(5));
  if (!settle(trailer)) return chunk;
  const data = trailerSerialize(trailer);
  const frame = new Uint8Array(5 + data.byteLength);
  frame[0] = trailerFlag;
  new DataView(frame.buffer).setUint32(1, data.byteLength);
  frame.set(data, 5);
  return frame;
}

function explainRejection(
  status: 405 | 415,
  request: UniversalServerRequest,
  handler: UniversalHandler,
): UniversalServerResponse {
  const message =
    status === 415
      ? unsupportedMediaTypeMessage(request.header.get("content-type") ?? undefined)
      : `method ${request.method} is not allowed on ${handler.requestPath}; use ${handler.allowedMethods.join(" or ")}`;
  const response = jsonRejection(
    status,
    status === 415 ? "Unsupported Media Type" : "Method Not Allowed",
    message,
  );
  if (status === 405) response.header.set("allow", handler.allowedMethods.join(", "));
  return response;
}

/** A plain JSON rejection in Fastify's error shape, saying what is accepted. */
function jsonRejection(
  status: 405 | 415,
  error: string,
  message: string,
): UniversalServerResponse & { header: Headers } {
  const body = new TextEncoder().encode(JSON.stringify({ error, message, statusCode: status }));
  const header = new Headers({
    "content-type": "application/json; charset=utf-8",
    "content-length": String(body.byteLength),
  });
  if (status === 415) header.set("accept-post", acceptedRpcContentTypes.join(", "));
  return { status, header, body: createAsyncIterable([body]) };
}
