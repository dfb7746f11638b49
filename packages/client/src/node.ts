// The Node entry of @costplugin/client: everything of the browser entry, plus gRPC and a choice
// of HTTP/1.1 or HTTP/2 through @connectrpc/connect-node.
export * from "./index.js";
export type { CostPluginNodeClient, CostPluginNodeClientOptions } from "./node-client.js";
export { createCostPluginNodeClient } from "./node-client.js";
export type { CostPluginNodeTransportOptions, NodeClientProtocol } from "./node-transport.js";
export { createCostPluginNodeTransport, nodeClientProtocols } from "./node-transport.js";
