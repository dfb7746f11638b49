import * as actualCost from "./checks/actual-cost-checks.js";
import * as errors from "./checks/error-checks.js";
import * as lifecycle from "./checks/lifecycle-checks.js";
import * as name from "./checks/name-checks.js";
import * as observability from "./checks/observability-checks.js";
import * as performance from "./checks/performance-checks.js";
import * as pricingSpec from "./checks/pricing-spec-checks.js";
import * as projectedCost from "./checks/projected-cost-checks.js";
import * as robustness from "./checks/robustness-checks.js";
import * as supports from "./checks/supports-checks.js";
import * as transport from "./checks/transport-checks.js";
import type { ConformanceCheck, ConformanceCheckInfo } from "./conformance-check.js";

/**
 * Every check, in run order. The order matters: checks that only read come first, performance
 * next, hostile requests after that (garbage last, since a fragile plugin may die of it), and
 * the lifecycle checks, which stop the plugin, at the very end.
 */
export const conformanceChecks: readonly ConformanceCheck[] = [
  transport.reachableCheck,
  transport.grpcServedCheck,
  name.nameNonEmptyCheck,
  name.nameConsistentCheck,
  supports.supportsFixtureCheck,
  supports.supportsReasonCheck,
  projectedCost.projectedCostAnswersCheck,
  projectedCost.projectedCostCurrencyCheck,
  projectedCost.projectedCostFiniteCheck,
  projectedCost.projectedCostMonthlyCheck,
  projectedCost.projectedCostEmptyResourceCheck,
  pricingSpec.pricingSpecAnswersCheck,
  pricingSpec.pricingSpecCurrencyCheck,
  pricingSpec.pricingSpecFiniteCheck,
  pricingSpec.pricingSpecBillingModeCheck,
  pricingSpec.pricingSpecConsistencyCheck,
  actualCost.actualCostAnswersCheck,
  actualCost.actualCostOrderedCheck,
  actualCost.actualCostRangeCheck,
  actualCost.actualCostFiniteCheck,
  actualCost.actualCostReversedRangeCheck,
  actualCost.actualCostMissingResourceCheck,
  errors.errorDetailPresentCheck,
  errors.errorCategoryCheck,
  errors.errorStatusCheck,
  observability.healthCheckCheck,
  observability.metricsCheck,
  observability.serviceLevelIndicatorsCheck,
  observability.grpcHealthCheck,
  performance.nameLatencyCheck,
  performance.supportsLatencyCheck,
  performance.projectedCostLatencyCheck,
  performance.pricingSpecLatencyCheck,
  performance.actualCostDayLatencyCheck,
  performance.actualCostMonthLatencyCheck,
  performance.standardConcurrencyCheck,
  performance.advancedConcurrencyCheck,
  robustness.unknownMethodCheck,
  robustness.unsupportedContentTypeCheck,
  robustness.connectGetCheck,
  robustness.oversizedMessageCheck,
  robustness.garbageBytesCheck,
  lifecycle.portLineCheck,
  lifecycle.sigtermExitCheck,
  lifecycle.stdoutCleanCheck,
];

/** The description of every check (id, level, scope, what it asserts), in run order. */
export function listConformanceChecks(): ConformanceCheckInfo[] {
  return conformanceChecks.map(({ id, level, description, scope, protocols }) => ({
    id,
    level,
    description,
    scope,
    ...(protocols ? { protocols } : {}),
  }));
}
