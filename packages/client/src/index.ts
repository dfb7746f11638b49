// The browser-safe entry of @costplugin/client. Nothing reachable from here may import a
// `node:` module (a test bundles this entry for the browser and fails on one).
export type {
  CircuitBreakerOptions,
  CircuitBreakerState,
  ResolvedCircuitBreakerOptions,
} from "./circuit-breaker.js";
export { defaultCircuitBreakerOptions, isPluginFailure } from "./circuit-breaker.js";
export type { ClientProtocol } from "./client-protocol.js";
export { clientProtocols } from "./client-protocol.js";
export type { CostPluginClient, CostPluginClientOptions } from "./cost-plugin-client.js";
export { costPluginClientFromTransport, createCostPluginClient } from "./cost-plugin-client.js";
export type { CostPluginTransportOptions } from "./cost-plugin-transport.js";
export { createCostPluginTransport } from "./cost-plugin-transport.js";
export type { CostPluginMethodName, DeadlineOptions } from "./deadlines.js";
export { defaultDeadlines } from "./deadlines.js";
export {
  errorCategoryFromCode,
  errorCategoryFromError,
  errorDetailFromError,
} from "./error-detail.js";
export type { ResilienceOptions } from "./resilient-transport.js";
export { createResilientTransport } from "./resilient-transport.js";
export type { ResolvedRetryOptions, RetryOptions } from "./retry-options.js";
export { defaultRetryOptions, retryDelayFor } from "./retry-options.js";
export { isRetryableError } from "./retryable-error.js";
