import type { DescMessage, DescMethodUnary, JsonValue, MessageShape } from "@bufbuild/protobuf";
import { toJson } from "@bufbuild/protobuf";
import type { ClientProtocol, CostPluginClient } from "@costplugin/client";
import { createCostPluginClient } from "@costplugin/client";
import { CostSourceService } from "@costplugin/proto";

/** One finished call as the inspector shows it: what went out, what came back, how long. */
export interface CallRecord {
  /** The RPC, e.g. costplugin.v1.CostSourceService/Supports. */
  readonly method: DescMethodUnary;
  /** Plugin base URL the call went to, without trailing slash. */
  readonly baseUrl: string;
  /** Protocol the call used. */
  readonly protocol: ClientProtocol;
  /** The request in the protocol's JSON mapping (defaults omitted, as a client would send it). */
  readonly request: JsonValue;
  /** The response in the JSON mapping with every field shown; absent when the call failed. */
  readonly response?: JsonValue;
  /** The failure, when the call failed. */
  readonly error?: unknown;
  /** Wall time from sending to the answer, in milliseconds. */
  readonly latencyMs: number;
  /** When the call started. */
  readonly startedAt: Date;
}

/** A call's result: the typed response, or the error; both with their record. */
export type CallOutcome<O> =
  | { readonly ok: true; readonly value: O; readonly record: CallRecord }
  | { readonly ok: false; readonly error: unknown; readonly record: CallRecord };

/** The plugin the page talks to right now, over one protocol. */
export interface PluginSession {
  readonly baseUrl: string;
  readonly protocol: ClientProtocol;
  /** Calls one unary RPC of either service and records it. Never throws. */
  call<I extends DescMessage, O extends DescMessage>(
    method: DescMethodUnary<I, O>,
    request: MessageShape<I>,
  ): Promise<CallOutcome<MessageShape<O>>>;
}

/** Options of `createPluginSession`. */
export interface PluginSessionOptions {
  /** Plugin base URL, e.g. http://127.0.0.1:8080. */
  readonly baseUrl: string;
  /** Wire protocol. */
  readonly protocol: ClientProtocol;
  /** Clock for latency figures. Default: `performance.now`. */
  readonly now?: () => number;
}

type UnaryCall = (request: unknown) => Promise<unknown>;

/**
 * Opens a session on a plugin through `@costplugin/client`, straight from the browser.
 *
 * Retries and the circuit breaker are switched off: the playground exists to show what the plugin
 * answers to each single request, and a retried call would hide the error (and its retry-after)
 * that the person came to see.
 */
export function createPluginSession(options: PluginSessionOptions): PluginSession {
  const now = options.now ?? (() => performance.now());
  const client: CostPluginClient = createCostPluginClient({
    baseUrl: options.baseUrl,
    protocol: options.protocol,
    retry: false,
    circuitBreaker: false,
  });
  const serviceClient = (method: DescMethodUnary): Record<string, UnaryCall> =>
    (method.parent.typeName === CostSourceService.typeName
      ? client.costSource
      : client.observability) as unknown as Record<string, UnaryCall>;

  return {
    baseUrl: options.baseUrl,
    protocol: options.protocol,
    async call(method, request) {
      const startedAt = new Date();
      const started = now();
      const base = {
        method: method as unknown as DescMethodUnary,
        baseUrl: options.baseUrl,
        protocol: options.protocol,
        request: toJson(method.input, request),
        startedAt,
      };
      try {
        const invoke = serviceClient(base.method)[method.localName];
        if (invoke === undefined) throw new Error(`the client has no method ${method.name}`);
        const value = (await invoke(request)) as MessageShape<typeof method.output>;
        const record: CallRecord = {
          ...base,
          latencyMs: now() - started,
          response: toJson(method.output, value, { alwaysEmitImplicit: true }),
        };
        return { ok: true, value, record };
      } catch (error) {
        return { ok: false, error, record: { ...base, latencyMs: now() - started, error } };
      }
    },
  };
}

/** The URL path of a method on a plugin, e.g. `/costplugin.v1.CostSourceService/Supports`. */
export function methodPath(method: DescMethodUnary): string {
  return `/${method.parent.typeName}/${method.name}`;
}
