import type { DescMessage, DescMethodUnary, DescService } from "@bufbuild/protobuf";
import { MethodOptions_IdempotencyLevel } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter, HandlerContext, MethodImplSpec } from "@connectrpc/connect";
import { createMethodImplSpec, createServiceImplSpec } from "@connectrpc/connect";
import type { MethodSerializationLookup, UniversalHandler } from "@connectrpc/connect/protocol";
import { createMethodSerializationLookup } from "@connectrpc/connect/protocol";

/** A unary method implementation as Connect calls it. */
export type UnaryMethodImpl = (request: unknown, context: HandlerContext) => unknown;

/** One unary RPC the fast path can serve, with what it needs to decode, call and encode. */
export interface FastMethod {
  /** `/package.Service/Method`. */
  readonly path: string;
  readonly service: DescService;
  readonly method: DescMethodUnary;
  /** The implementation exactly as Connect registered it (bound, or its `unimplemented` stub). */
  readonly impl: UnaryMethodImpl;
  /** Connect GET is allowed: the method is marked `NO_SIDE_EFFECTS`. */
  readonly allowsGet: boolean;
  /** The universal handler Connect built for the same method (its error mapping needs it). */
  readonly handler: UniversalHandler;
  /** Binary and JSON codecs with the read limit, the same ones Connect's handlers use. */
  readonly serialization: MethodSerializationLookup<DescMessage, DescMessage>;
}

/** The unary methods a router was given, by request path. */
export type MethodTable = ReadonlyMap<string, FastMethod>;

/** Options of `createRecordingRouter`. */
export interface RecordingRouterOptions {
  /** Largest request message in bytes, as given to Connect. */
  readonly readMaxBytes: number;
}

/** A router that forwards to Connect's and remembers every unary method it registered. */
export interface RecordingRouter {
  /** Pass this to the routes function instead of Connect's router. */
  readonly router: ConnectRouter;
  /** What was registered so far. */
  readonly methods: MethodTable;
}

/**
 * Wraps the router Connect hands to a routes function: every `service()` and `rpc()` call goes
 * to Connect unchanged, and the unary methods among them are recorded with their
 * implementation, so the fast path calls the very functions Connect would. Registrations with
 * their own handler options (per-service limits, interceptors or protocols) are not recorded:
 * requests for them keep taking Connect's path.
 */
export function createRecordingRouter(
  target: ConnectRouter,
  options: RecordingRouterOptions,
): RecordingRouter {
  const methods = new Map<string, FastMethod>();
  const limits = { readMaxBytes: options.readMaxBytes, writeMaxBytes: 0xffffffff };

  const record = (specs: MethodImplSpec[], created: readonly UniversalHandler[]) => {
    for (const spec of specs) {
      if (spec.kind !== "unary") continue;
      const handler = created.find((h) => h.method === spec.method);
      if (handler === undefined) continue;
      methods.set(handler.requestPath, {
        path: handler.requestPath,
        service: spec.method.parent,
        method: spec.method,
        impl: spec.impl as UnaryMethodImpl,
        allowsGet: spec.method.idempotency === MethodOptions_IdempotencyLevel.NO_SIDE_EFFECTS,
        handler,
        serialization: createMethodSerializationLookup(spec.method, undefined, undefined, limits),
      });
    }
  };
  const registered = (run: () => void): UniversalHandler[] => {
    const before = target.handlers.length;
    run();
    return target.handlers.slice(before);
  };

  const router: ConnectRouter = {
    get handlers() {
      return target.handlers;
    },
    service(service, implementation, handlerOptions) {
      const created = registered(() => target.service(service, implementation, handlerOptions));
      if (handlerOptions === undefined) {
        record(Object.values(createServiceImplSpec(service, implementation).methods), created);
      }
      return router;
    },
    rpc(method, implementation, handlerOptions) {
      const created = registered(() => target.rpc(method, implementation, handlerOptions));
      if (handlerOptions === undefined)
        record([createMethodImplSpec(method, implementation)], created);
      return router;
    },
  };
  return { router, methods };
}
