import type { CallOptions, Client } from "@connectrpc/connect";
import { createClient } from "@connectrpc/connect";
import type { CostPluginNodeClient } from "@costplugin/client/node";
import { createCostPluginNodeClient, createCostPluginNodeTransport } from "@costplugin/client/node";
import type { CostSourceService, ObservabilityService } from "@costplugin/proto";
import { Health } from "@costplugin/proto/grpc-health";
import type { ConformanceProtocol } from "./protocols.js";

/** Everything the checks need to talk to the plugin in one protocol. */
export interface ProtocolSession {
  /** The protocol of this session. */
  readonly protocol: ConformanceProtocol;
  /** The HTTP version used for this protocol (always `2` for gRPC). */
  readonly httpVersion: "1.1" | "2";
  /** CostSourceService client, without retries or circuit breaker. */
  readonly costSource: Client<typeof CostSourceService>;
  /** ObservabilityService client, without retries or circuit breaker. */
  readonly observability: Client<typeof ObservabilityService>;
  /** The standard grpc.health.v1 client (created on first use). */
  health(): Client<typeof Health>;
  /** Options of every call: the run's call deadline. */
  readonly callOptions: CallOptions;
  /** Runs `call` once per key and session; later callers get the same promise. */
  memo<T>(key: string, call: () => Promise<T>): Promise<T>;
  /** Releases the session's connections. */
  close(): void;
}

/** Options of `createProtocolSession`. */
export interface ProtocolSessionOptions {
  readonly baseUrl: string;
  readonly protocol: ConformanceProtocol;
  /** HTTP version for gRPC-web and Connect; gRPC always uses HTTP/2. */
  readonly httpVersion: "1.1" | "2";
  /** Deadline of each call in milliseconds. */
  readonly callTimeoutMs: number;
}

/**
 * A session in one protocol. Calls go through `@costplugin/client/node` with retries, the circuit
 * breaker and default deadlines turned off: the kit must see every failure as it happened.
 */
export function createProtocolSession(options: ProtocolSessionOptions): ProtocolSession {
  const httpVersion = options.protocol === "grpc" ? "2" : options.httpVersion;
  const clientOptions = {
    baseUrl: options.baseUrl,
    protocol: options.protocol,
    httpVersion,
  } as const;
  const client: CostPluginNodeClient = createCostPluginNodeClient({
    ...clientOptions,
    retry: false,
    circuitBreaker: false,
    deadlines: false,
  });
  const memos = new Map<string, Promise<unknown>>();
  let health: Client<typeof Health> | undefined;
  return {
    protocol: options.protocol,
    httpVersion,
    costSource: client.costSource,
    observability: client.observability,
    health() {
      health ??= createClient(Health, createCostPluginNodeTransport(clientOptions));
      return health;
    },
    callOptions: { timeoutMs: options.callTimeoutMs },
    memo<T>(key: string, call: () => Promise<T>): Promise<T> {
      let pending = memos.get(key) as Promise<T> | undefined;
      if (pending === undefined) {
        pending = call();
        memos.set(key, pending);
      }
      return pending;
    },
    close() {
      client.close();
    },
  };
}
