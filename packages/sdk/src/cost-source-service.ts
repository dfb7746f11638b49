import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { CostSourceService } from "@costplugin/proto";
import { supportsFromCoverage } from "./coverage-supports.js";
import { runGuarded, unimplementedError } from "./error-boundary.js";
import type { PluginLogger } from "./logger.js";
import type { CostSourcePlugin } from "./plugin.js";
import type { RequestLimits } from "./request-limits.js";
import { validateActualCostRequest } from "./validate-actual-cost.js";
import { validateResource } from "./validate-resource.js";

/** What `createCostSourceService` needs besides the plugin. */
export interface CostSourceServiceOptions {
  /** Where unexpected plugin exceptions are logged with their stack. */
  readonly logger: PluginLogger;
  /** Size limits of request fields. */
  readonly limits: RequestLimits;
  /** Longest GetActualCost range in days. */
  readonly maxActualCostSpanDays: number;
}

/**
 * The CostSourceService implementation around a plugin: a method the plugin leaves out answers
 * unimplemented (Supports falls back to the declared coverage first); every request is
 * validated before the plugin sees it; every failure leaves through the error boundary.
 */
export function createCostSourceService(
  plugin: CostSourcePlugin,
  options: CostSourceServiceOptions,
): ServiceImpl<typeof CostSourceService> {
  const { limits, logger } = options;
  const site = (method: string, context: HandlerContext) => ({
    service: CostSourceService.typeName,
    method,
    signal: context.signal,
    logger,
  });
  return {
    name: () => ({ name: plugin.name }),
    supports: (request, context) =>
      runGuarded(site("Supports", context), () => {
        if (plugin.supports) {
          validateResource(request.resource, limits);
          return plugin.supports(request, context);
        }
        if (plugin.coverage) {
          validateResource(request.resource, limits);
          return supportsFromCoverage(plugin.coverage, request.resource);
        }
        throw unimplementedError("Supports", plugin.name);
      }),
    getProjectedCost: (request, context) =>
      runGuarded(site("GetProjectedCost", context), () => {
        if (!plugin.getProjectedCost) throw unimplementedError("GetProjectedCost", plugin.name);
        validateResource(request.resource, limits);
        return plugin.getProjectedCost(request, context);
      }),
    getActualCost: (request, context) =>
      runGuarded(site("GetActualCost", context), () => {
        if (!plugin.getActualCost) throw unimplementedError("GetActualCost", plugin.name);
        validateActualCostRequest(request, limits, options.maxActualCostSpanDays);
        return plugin.getActualCost(request, context);
      }),
    getPricingSpec: (request, context) =>
      runGuarded(site("GetPricingSpec", context), () => {
        if (!plugin.getPricingSpec) throw unimplementedError("GetPricingSpec", plugin.name);
        validateResource(request.resource, limits);
        return plugin.getPricingSpec(request, context);
      }),
  };
}
