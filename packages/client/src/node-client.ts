import type { CostPluginClient } from "./cost-plugin-client.js";
import { costPluginClientFromTransport } from "./cost-plugin-client.js";
import type { CostPluginNodeTransportOptions } from "./node-transport.js";
import { createNodeConnection } from "./node-transport.js";
import type { ResilienceOptions } from "./resilient-transport.js";
import { createResilientTransport } from "./resilient-transport.js";

/** Options of `createCostPluginNodeClient`. */
export interface CostPluginNodeClientOptions
  extends CostPluginNodeTransportOptions,
    ResilienceOptions {}

/** A Node client for both services, with a way to release its connections. */
export interface CostPluginNodeClient extends CostPluginClient {
  /**
   * Closes the client's connections (calls in flight fail with `canceled`). A client that is
   * used again reconnects; call this when done so the process can exit promptly.
   */
  close(): void;
}

/**
 * A Node client for a costplugin.v1 plugin over Connect, gRPC-web or gRPC (HTTP/1.1 or HTTP/2),
 * with the same deadlines, retries and circuit breaker as the browser client.
 */
export function createCostPluginNodeClient(
  options: CostPluginNodeClientOptions,
): CostPluginNodeClient {
  const connection = createNodeConnection(options);
  const client = costPluginClientFromTransport(
    createResilientTransport(connection.transport, options),
  );
  return { ...client, close: () => connection.close() };
}
