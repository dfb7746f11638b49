export type { BillingMetricsOptions } from "./billing-metrics.js";
export { registerBillingMetrics } from "./billing-metrics.js";
export type { BillingPluginOptions } from "./billing-plugin.js";
export { createBillingPlugin, hoursPerMonth } from "./billing-plugin.js";
export type {
  BillingStore,
  BillingStoreOptions,
  DailyTotal,
  PullState,
  StoredCost,
  StoredDimension,
  UpsertCounts,
} from "./billing-store.js";
export { createBillingStore, tagsOfStored } from "./billing-store.js";
export type { CliEnvironment, ServePlugin } from "./cli-program.js";
export { exitCodes, formatSummary, runCli } from "./cli-program.js";
export type { BillingConfig, ParseConfigOptions } from "./config.js";
export {
  defaultDatabaseUrl,
  defaultGroupings,
  defaultVendorApiUrl,
  loadBillingConfig,
  parseBillingConfig,
  parseBillingConfigText,
} from "./config.js";
export { ConfigError } from "./config-error.js";
export type { ConfigValue } from "./config-value.js";
export type { CostRow } from "./cost-row.js";
export { costRowFromVendor, dayFromAccruedAt, splitTag } from "./cost-row.js";
export type { CostScope, ResolveCredentialsOptions, ResolvedCredentials } from "./credentials.js";
export { credentialVariables, resolveCredentials } from "./credentials.js";
export { canonicalAmount, sumAmounts } from "./decimal-amount.js";
export type { BillingLogger, LoggerOptions } from "./logger.js";
export { createLogger } from "./logger.js";
export type { PullOptions, PullPlan, PullProgress, PullSummary, PullTotals } from "./pull.js";
export { planPull, runPull } from "./pull.js";
export { PullLockedError } from "./pull-lock.js";
export type { PullProgressOptions } from "./pull-progress.js";
export { createPullProgress } from "./pull-progress.js";
export type { Redactor } from "./redactor.js";
export { createRedactor, redactedMark } from "./redactor.js";
export { billingMigrationsTable, createBillingMigrations } from "./store-migrations.js";
export type {
  CostPage,
  CostQuery,
  ProbeResult,
  RetryEvent,
  VendorClient,
  VendorClientOptions,
} from "./vendor-client.js";
export { createVendorClient, requestedWaitMs } from "./vendor-client.js";
export type { VendorErrorKind, VendorErrorOptions } from "./vendor-error.js";
export {
  errorCodeFromVendorError,
  forbiddenMessage,
  unauthorizedMessage,
  VendorError,
} from "./vendor-error.js";
