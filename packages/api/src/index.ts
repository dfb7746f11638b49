export type {
  ApiConfigFromEnv,
  ApiEnv,
  ApiOptions,
  AuthOptions,
  ModelProvidersOptions,
  ProviderOptions,
  RateLimitOptions,
  RetryOptions,
  SchedulerEngine,
} from "./api-options.js";
export { apiOptionsFromEnv, defaultDatabaseUrl, defaultFileProcessorRoot } from "./api-options.js";
export type { ApiPluginOptions } from "./api-plugin.js";
export { createApiExtension, defaultApiPrefix, fastifyApiPlugin } from "./api-plugin.js";
export type { ApiServices, ApiServicesHooks } from "./api-services.js";
export { createApiServices } from "./api-services.js";
export type { Access, Principal } from "./auth/jwt-auth.js";
export type { AccessTokenOptions, MintTokenOptions } from "./auth/mint-token.js";
export { mintToken, signAccessToken } from "./auth/mint-token.js";
export type { Role } from "./auth/roles.js";
export { roles } from "./auth/roles.js";
export type { TokenCommandOptions } from "./auth/token-command.js";
export { tokenCommand } from "./auth/token-command.js";
export type { Clock } from "./clock.js";
export { systemClock } from "./clock.js";
export type { ManualClock } from "./manual-clock.js";
export { createManualClock } from "./manual-clock.js";
export type { Problem } from "./problem.js";
export { problemContentType } from "./problem.js";
export { signatureHeader, signWebhook, timestampHeader } from "./processors/webhook-processor.js";
