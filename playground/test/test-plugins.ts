import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { createListPricePlugin } from "@costplugin/plugin-list-price";
import { ErrorCode } from "@costplugin/proto";
import type { CostSourcePlugin } from "@costplugin/sdk";
import { definePlugin, PluginError } from "@costplugin/sdk";

/** The SKU for which the second plugin answers RATE_LIMITED with a retry-after. */
export const rateLimitedSku = "rate-limited";
/** Seconds of retry-after the second plugin sends. */
export const retryAfterSeconds = 42;
/** The resource id for which the second plugin has actual costs. */
export const billedResourceId = "i-0abc123";
/** The daily costs it reports for that resource, starting 2025-03-01. */
export const dailyCosts = [1.25, 2.5, 0.75] as const;

/** The second plugin's health; tests flip it to see the badge follow. */
export const secondPluginHealth: { status: "serving" | "not_serving"; message: string } = {
  status: "serving",
  message: "",
};

/**
 * A second plugin on another port: list prices, except that one SKU fails with a rate limit
 * (to show an ErrorDetail) and one resource id has three days of actual costs.
 */
export function createSecondPlugin(): CostSourcePlugin {
  const base = createListPricePlugin();
  return definePlugin({
    name: "second list prices",
    health: () => ({ ...secondPluginHealth }),
    supports: (request, context) => base.supports?.(request, context) ?? { supported: false },
    getPricingSpec: (request, context) => {
      if (!base.getPricingSpec) throw new PluginError(ErrorCode.PLUGIN_NOT_CONFIGURED, "no spec");
      return base.getPricingSpec(request, context);
    },
    getProjectedCost: (request, context) => {
      if (request.resource?.sku === rateLimitedSku) {
        throw new PluginError(
          ErrorCode.RATE_LIMITED,
          "the price source is rate limiting this plugin",
          {
            retryAfterSeconds,
            details: { upstream: "price-api" },
          },
        );
      }
      if (!base.getProjectedCost)
        throw new PluginError(ErrorCode.PLUGIN_NOT_CONFIGURED, "no prices");
      return base.getProjectedCost(request, context);
    },
    getActualCost: (request) => {
      if (request.resourceId !== billedResourceId) {
        throw new PluginError(
          ErrorCode.RESOURCE_NOT_FOUND,
          `no billing data for "${request.resourceId}"`,
        );
      }
      const first = Date.parse("2025-03-01T00:00:00Z");
      return {
        results: dailyCosts.map((cost, day) => ({
          timestamp: timestampFromMs(first + day * 86_400_000),
          cost,
          usageAmount: 24,
          usageUnit: "hour",
          source: "test-billing",
        })),
      };
    },
  });
}
