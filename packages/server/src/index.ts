export { buildApp } from "./build-app.js";
export type { ConnectionRouterOptions, RequestHandler } from "./connection-router.js";
export { createConnectionRouter } from "./connection-router.js";
export type { ConnectionTracker } from "./connection-tracker.js";
export { createConnectionTracker } from "./connection-tracker.js";
export { acceptedRpcContentTypes } from "./content-types.js";
export {
  corsAllowedHeaders,
  corsExposedHeaders,
  fastifyCorsOptionsFromCors,
  loopbackOrigin,
} from "./cors.js";
export type { FastPath, FastPathAttachOptions, FastPathOptions } from "./fast-path/fast-path.js";
export { createFastPath } from "./fast-path/fast-path.js";
export type { HostOptions } from "./host-options.js";
export { HostOptionsError, parseHostOptions, pluginPortVariable } from "./host-options.js";
export type { LogDestination, LogDestinationOptions } from "./log-destination.js";
export { createLogDestination } from "./log-destination.js";
export { redactedPaths, redactNestedCredentials } from "./logger.js";
export { requestIdFromHeaders, traceparentFromHeaders } from "./request-id.js";
export type { RunPluginOptions } from "./run-plugin.js";
export { runPlugin } from "./run-plugin.js";
export type {
  CorsOptions,
  ServerOptions,
  TimeoutOptions,
  TlsOptions,
} from "./server-options.js";
export { serverDefaults } from "./server-options.js";
export type { RunningServer } from "./start-server.js";
export { startServer } from "./start-server.js";
export type { Tracing, TracingOptions } from "./tracing.js";
export { createTracing, tracingOptionsFromEnv } from "./tracing.js";
