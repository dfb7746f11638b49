export type { Clock } from "./clock.js";
export { systemClock } from "./clock.js";
export { supportsFromCoverage } from "./coverage-supports.js";
export type { ErrorDetailInit } from "./error-detail.js";
export { connectErrorWithDetail, errorDetailFromConnectError } from "./error-detail.js";
export type { HealthProbe, HealthSnapshot } from "./health-monitor.js";
export type { PluginLogger } from "./logger.js";
export { stderrLogger } from "./logger.js";
export type { Observability, ObservabilityOptions, SliOptions } from "./observability.js";
export { createObservability } from "./observability.js";
export { metricNamesLimits, metricsFormats } from "./observability-service.js";
export type {
  CostSourcePlugin,
  HealthReport,
  PluginCoverage,
  Reply,
} from "./plugin.js";
export { definePlugin } from "./plugin.js";
export type { PluginErrorOptions } from "./plugin-error.js";
export {
  categoryFromErrorCode,
  connectCodeFromErrorCode,
  connectErrorFromPluginError,
  PluginError,
} from "./plugin-error.js";
export type { PluginRoutes, PluginRoutesOptions } from "./plugin-routes.js";
export { createPluginRoutes } from "./plugin-routes.js";
export type { RequestLimits } from "./request-limits.js";
export { defaultMaxActualCostSpanDays, defaultRequestLimits } from "./request-limits.js";
export { defaultDurationBuckets, rpcMetricNames } from "./rpc-metrics.js";
export type { RpcProtocol } from "./rpc-protocol.js";
export { protocolFromContentType } from "./rpc-protocol.js";
export type { SliName, SliValue } from "./service-level-indicators.js";
export { sliNames } from "./service-level-indicators.js";
export type { SliTargets } from "./sli-targets.js";
export { defaultSliTargets, sliStatus } from "./sli-targets.js";
