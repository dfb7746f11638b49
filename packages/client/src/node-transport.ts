import * as http from "node:http";
import * as https from "node:https";
import type { Interceptor, Transport } from "@connectrpc/connect";
import {
  createConnectTransport,
  createGrpcTransport,
  createGrpcWebTransport,
  Http2SessionManager,
} from "@connectrpc/connect-node";
import { parseBaseUrl } from "./base-url.js";
import type { ClientProtocol } from "./client-protocol.js";
import { clientProtocols, parseProtocol } from "./client-protocol.js";

/** The protocols the Node entry speaks: the browser ones plus gRPC (HTTP/2 only). */
export type NodeClientProtocol = ClientProtocol | "grpc";

/** Every `NodeClientProtocol`. */
export const nodeClientProtocols: readonly NodeClientProtocol[] = Object.freeze([
  ...clientProtocols,
  "grpc",
]);

/** Options of `createCostPluginNodeTransport`. */
export interface CostPluginNodeTransportOptions {
  /**
   * The plugin's base URL, e.g. `http://127.0.0.1:8080`. Must be http: or https: and must not
   * hold credentials. gRPC clients cannot use a path prefix. Required.
   */
  readonly baseUrl: string;
  /** The wire protocol. Default `"connect-json"`. */
  readonly protocol?: NodeClientProtocol;
  /**
   * HTTP version. Default `"2"` for gRPC (which requires it: `"1.1"` is rejected) and `"1.1"`
   * for the others, which then behave exactly like a browser. Over `http:` HTTP/2 means h2c
   * with prior knowledge; over `https:` it is negotiated with ALPN.
   */
  readonly httpVersion?: "1.1" | "2";
  /** Send side-effect-free RPCs as HTTP GET. Connect protocols only. Default false. */
  readonly useHttpGet?: boolean;
  /** Connect interceptors, run on every attempt. Default none. */
  readonly interceptors?: Interceptor[];
}

/** A Node transport and the way to release its connections. */
export interface NodeConnection {
  /** The transport. */
  readonly transport: Transport;
  /**
   * Closes the connections the transport holds (the HTTP/2 session, or the HTTP/1.1 keep-alive
   * sockets); calls in flight fail with `canceled`. A later call opens a new connection.
   */
  close(): void;
}

/**
 * A Node transport to a costplugin.v1 plugin over Connect (JSON or binary), gRPC-web or gRPC,
 * on HTTP/1.1 or HTTP/2. No deadlines, retries or circuit breaker: use
 * `createCostPluginNodeClient` for those, or wrap it with `createResilientTransport`.
 */
export function createCostPluginNodeTransport(options: CostPluginNodeTransportOptions): Transport {
  return createNodeConnection(options).transport;
}

/** Like `createCostPluginNodeTransport`, also returning a handle to close its connections. */
export function createNodeConnection(options: CostPluginNodeTransportOptions): NodeConnection {
  const baseUrl = parseBaseUrl(options.baseUrl);
  const protocol = parseProtocol(options.protocol, nodeClientProtocols, "connect-json");
  const httpVersion = options.httpVersion ?? (protocol === "grpc" ? "2" : "1.1");
  if (httpVersion !== "1.1" && httpVersion !== "2") {
    throw new RangeError(`httpVersion must be "1.1" or "2", got ${JSON.stringify(httpVersion)}`);
  }
  if (protocol === "grpc" && httpVersion !== "2") {
    throw new RangeError('protocol "grpc" requires httpVersion "2"');
  }
  const common = { baseUrl, interceptors: options.interceptors ?? [] };
  const connectOptions = {
    useBinaryFormat: protocol === "connect-binary",
    useHttpGet: options.useHttpGet === true,
  };
  if (httpVersion === "2") {
    const version = { httpVersion, sessionManager: new Http2SessionManager(baseUrl) } as const;
    const transport =
      protocol === "grpc"
        ? createGrpcTransport({ ...common, ...version })
        : protocol === "grpc-web"
          ? createGrpcWebTransport({ ...common, ...version, useBinaryFormat: true })
          : createConnectTransport({ ...common, ...version, ...connectOptions });
    return { transport, close: () => version.sessionManager.abort() };
  }
  const agent = baseUrl.startsWith("https:")
    ? new https.Agent({ keepAlive: true })
    : new http.Agent({ keepAlive: true });
  const version = { httpVersion, nodeOptions: { agent } } as const;
  const transport =
    protocol === "grpc-web"
      ? createGrpcWebTransport({ ...common, ...version, useBinaryFormat: true })
      : createConnectTransport({ ...common, ...version, ...connectOptions });
  return { transport, close: () => agent.destroy() };
}
