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
export type { PluginLogger, PluginRoutesOptions } from "./plugin-routes.js";
export { createPluginRoutes } from "./plugin-routes.js";
