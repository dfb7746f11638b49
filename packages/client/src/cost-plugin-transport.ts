import type { Interceptor, Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-web";
import { parseBaseUrl } from "./base-url.js";
import type { ClientProtocol } from "./client-protocol.js";
import { clientProtocols, parseProtocol } from "./client-protocol.js";
import { createNetworkErrorFetch } from "./network-error-fetch.js";

/** Options of `createCostPluginTransport`. */
export interface CostPluginTransportOptions {
  /**
   * The plugin's base URL, e.g. `http://127.0.0.1:8080` (a path prefix works for Connect and
   * gRPC-web). Must be http: or https: and must not hold credentials. Required.
   */
  readonly baseUrl: string;
  /** The wire protocol. Default `"connect-json"`. */
  readonly protocol?: ClientProtocol;
  /**
   * Send side-effect-free RPCs (all costplugin.v1 RPCs) as HTTP GET, which proxies and browsers
   * can cache. Connect protocols only; gRPC-web always POSTs. Default false.
   */
  readonly useHttpGet?: boolean;
  /**
   * Connect interceptors, run on every attempt (so a retried call runs them again), e.g. to
   * add an `Authorization` header. Default none.
   */
  readonly interceptors?: Interceptor[];
  /**
   * The fetch function. Default: `globalThis.fetch`, looked up at call time. Failures to reach
   * the server are reported as `unavailable`.
   */
  readonly fetch?: typeof globalThis.fetch;
}

/**
 * A browser-safe transport to a costplugin.v1 plugin over Connect (JSON or binary) or
 * gRPC-web, using fetch. It applies no deadlines, retries or circuit breaker: use
 * `createCostPluginClient` for that, or wrap it with `createResilientTransport`.
 */
export function createCostPluginTransport(options: CostPluginTransportOptions): Transport {
  const baseUrl = parseBaseUrl(options.baseUrl);
  const protocol = parseProtocol(options.protocol, clientProtocols, "connect-json");
  const userFetch = options.fetch;
  const fetch = createNetworkErrorFetch(
    userFetch ?? ((input, init) => globalThis.fetch(input, init)),
  );
  const interceptors = options.interceptors ?? [];
  if (protocol === "grpc-web") {
    return createGrpcWebTransport({ baseUrl, useBinaryFormat: true, interceptors, fetch });
  }
  return createConnectTransport({
    baseUrl,
    useBinaryFormat: protocol === "connect-binary",
    useHttpGet: options.useHttpGet === true,
    interceptors,
    fetch,
  });
}
