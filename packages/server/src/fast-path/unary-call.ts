import type { DescMethodUnary, DescService, Message } from "@bufbuild/protobuf";
import { create } from "@bufbuild/protobuf";
import type {
  ContextValues,
  HandlerContext,
  Interceptor,
  UnaryRequest,
  UnaryResponse,
} from "@connectrpc/connect";
import type { CallSignal } from "./call-signal.js";
import type { ResponseHeaders } from "./deferred-headers.js";
import type { FastMethod } from "./method-table.js";

/** Everything one unary call carries between decoding and encoding. */
export interface UnaryCall {
  readonly route: FastMethod;
  /** `connect`, `grpc` or `grpc-web`, Connect's `HandlerContext.protocolName`. */
  readonly protocolName: string;
  /** `POST` or `GET`. */
  readonly requestMethod: string;
  /** The request headers as Connect presents them. */
  readonly requestHeader: Headers;
  /** The absolute request URL, as Connect computes it. */
  readonly url: string;
  readonly contextValues: ContextValues;
  readonly signal: CallSignal;
  /** Milliseconds left until the deadline, or undefined without one. */
  readonly timeoutMs: () => number | undefined;
  readonly responseHeader: ResponseHeaders;
  readonly responseTrailer: ResponseHeaders;
}

/** `timeoutMs()` of a call without a deadline. */
const noTimeout = (): undefined => undefined;

/** The `HandlerContext.timeoutMs` of a call with `timeoutMs` (or none). */
export function timeoutClock(timeoutMs: number | undefined): () => number | undefined {
  if (timeoutMs === undefined) return noTimeout;
  const deadline = Date.now() + timeoutMs;
  return () => deadline - Date.now();
}

type AnyNext = (request: UnaryRequest) => Promise<UnaryResponse>;

/**
 * The `HandlerContext` Connect merges from its context and the (possibly replaced) request:
 * every field a plain own property, so spreading it keeps everything.
 */
class FastHandlerContext implements HandlerContext {
  readonly method: DescMethodUnary;
  readonly service: DescService;
  readonly signal: AbortSignal;
  readonly timeoutMs: () => number | undefined;
  readonly requestMethod: string;
  readonly requestHeader: Headers;
  readonly responseHeader: Headers;
  readonly responseTrailer: Headers;
  readonly protocolName: string;
  readonly values: ContextValues;
  readonly url: string;

  constructor(call: UnaryCall, request: UnaryRequest) {
    this.method = call.route.method;
    this.service = request.service;
    this.signal = request.signal;
    this.timeoutMs = call.timeoutMs;
    this.requestMethod = call.requestMethod;
    this.requestHeader = request.header;
    this.responseHeader = call.responseHeader;
    this.responseTrailer = call.responseTrailer;
    this.protocolName = call.protocolName;
    this.values = request.contextValues;
    this.url = call.url;
  }
}

/**
 * Runs the interceptors and the method implementation of one call, as Connect does: the
 * interceptors see a `UnaryRequest` and `UnaryResponse` of the shapes Connect builds, the
 * implementation gets a `HandlerContext` merged from the (possibly replaced) request, and its
 * answer is normalised into a message of the output type. Response headers and trailers an
 * interceptor replaced are copied into the call's own, as Connect copies them.
 */
export async function invokeUnary(
  call: UnaryCall,
  input: Message,
  interceptors: readonly Interceptor[],
): Promise<Message> {
  const { route } = call;
  const implementation: AnyNext = async (request) => {
    const output = await route.impl(request.message, new FastHandlerContext(call, request));
    return {
      message: create(route.method.output, output as never),
      stream: false,
      method: route.method,
      service: route.service,
      header: call.responseHeader,
      trailer: call.responseTrailer,
    } as UnaryResponse;
  };
  let next = implementation;
  for (let i = interceptors.length - 1; i >= 0; i--) {
    next = (interceptors[i] as Interceptor)(next as never) as unknown as AnyNext;
  }
  const response = await next({
    stream: false,
    message: input,
    method: route.method,
    requestMethod: call.requestMethod,
    url: call.url,
    signal: call.signal.signal,
    header: call.requestHeader,
    service: route.service,
    contextValues: call.contextValues,
  } as UnaryRequest);
  copyInto(response.header, call.responseHeader);
  copyInto(response.trailer, call.responseTrailer);
  return response.message as Message;
}

function copyInto(from: Headers, to: Headers): void {
  if (from === to) return;
  for (const name of [...to.keys()]) to.delete(name);
  from.forEach((value, name) => {
    to.set(name, value);
  });
}
