import { ErrorCode } from "@costplugin/proto";
import type { CostSourcePlugin } from "@costplugin/sdk";
import { definePlugin, PluginError } from "@costplugin/sdk";
import type { Catalogue } from "./catalogue.js";
import { loadEmbeddedCatalogue } from "./embedded-catalogue.js";
import { pricingSpecFromResolved } from "./pricing-spec.js";
import type { UsageAssumptions } from "./projected-cost.js";
import { projectCost } from "./projected-cost.js";
import { providerAliases } from "./providers.js";
import { resolveResource } from "./resolve-resource.js";
import { resourceTypeDefinitions } from "./resource-types.js";
import { supportsAnswer } from "./supports-answer.js";

/** Options of `createListPricePlugin`; every field has a default. */
export interface ListPricePluginOptions extends Partial<UsageAssumptions> {
  /** Display name answered by Name. Default `list-price`. */
  readonly name?: string;
  /**
   * The price catalogue. Default: the catalogue shipped in `src/catalogue/`, validated once on
   * first use. Build another one with `createCatalogue` (tests, private price lists).
   */
  readonly catalogue?: Catalogue;
}

/** The list-price plugin: a CostSourcePlugin that also exposes the catalogue it answers from. */
export interface ListPricePlugin extends CostSourcePlugin {
  /** The validated catalogue the plugin answers from. */
  readonly catalogue: Catalogue;
}

/** Package of the plugin that serves actual (billed) costs, named in GetActualCost's answer. */
export const ACTUAL_COST_PLUGIN = "@costplugin/plugin-billing";

/** The defaults of `ListPricePluginOptions`' usage assumptions. */
export const defaultUsageAssumptions: UsageAssumptions = {
  hoursPerMonth: 730,
  defaultVolumeSizeGb: 8,
  defaultBucketSizeGb: 1,
  defaultLambdaRequestsPerMonth: 1_000_000,
  defaultLambdaMemoryMb: 128,
  defaultLambdaDurationMs: 100,
};

/**
 * Creates the reference plugin: public on-demand list prices of AWS (EC2, EBS, S3, RDS,
 * Lambda), Azure VMs and Compute Engine, each with its source and as-of date. Supports,
 * GetProjectedCost and GetPricingSpec answer from the catalogue; GetActualCost reports that this
 * plugin holds no billing data. Throws `RangeError` for an option out of range and
 * `CatalogueError` if the shipped catalogue is malformed, so mistakes fail at start-up.
 */
export function createListPricePlugin(options: ListPricePluginOptions = {}): ListPricePlugin {
  const name = options.name ?? "list-price";
  const catalogue = options.catalogue ?? loadEmbeddedCatalogue();
  const assumptions = usageAssumptionsFromOptions(options);
  return definePlugin({
    name,
    catalogue,
    coverage: {
      providers: Object.values(providerAliases).flat(),
      resourceTypes: resourceTypeDefinitions.flatMap((definition) =>
        definition.aliases.map((alias) => alias.alias),
      ),
      regions: [...new Set(catalogue.services.flatMap((service) => service.regions))].sort(),
    },
    supports: (request) => supportsAnswer(catalogue, requireResource(request.resource)),
    getProjectedCost: (request) => {
      const resource = requireResource(request.resource);
      const resolved = resolveResource(catalogue, resource);
      const cost = projectCost(resolved, resource.tags, assumptions);
      return {
        unitPrice: cost.unitPrice,
        currency: resolved.entry.currency,
        costPerMonth: cost.costPerMonth,
        billingDetail: cost.billingDetail,
      };
    },
    getPricingSpec: (request) => {
      const resolved = resolveResource(catalogue, requireResource(request.resource));
      return { spec: pricingSpecFromResolved(resolved, catalogue, assumptions.hoursPerMonth) };
    },
    getActualCost: () => {
      throw new PluginError(
        ErrorCode.PLUGIN_NOT_CONFIGURED,
        `plugin "${name}" holds public list prices, not billing data, so it has no actual costs; ask the billing-data plugin (${ACTUAL_COST_PLUGIN}) for GetActualCost`,
        {
          details: {
            reason: "no_billing_data",
            actual_cost_plugin: ACTUAL_COST_PLUGIN,
            offered_methods: "Supports,GetProjectedCost,GetPricingSpec",
          },
        },
      );
    },
    health: () => ({
      status: "serving",
      message: `catalogue ${catalogue.version} (as of ${catalogue.asOf}): ${catalogue.entries.length} prices`,
    }),
  });
}

function requireResource<T>(resource: T | undefined): T {
  // The SDK validates requests before they arrive; this keeps direct callers honest too.
  if (resource === undefined) {
    throw new PluginError(ErrorCode.INVALID_RESOURCE, "resource is missing");
  }
  return resource;
}

function usageAssumptionsFromOptions(options: ListPricePluginOptions): UsageAssumptions {
  const assumptions = { ...defaultUsageAssumptions };
  const ranges: Record<keyof UsageAssumptions, readonly [number, number]> = {
    hoursPerMonth: [1, 744],
    defaultVolumeSizeGb: [0, 1e9],
    defaultBucketSizeGb: [0, 1e9],
    defaultLambdaRequestsPerMonth: [0, 1e15],
    defaultLambdaMemoryMb: [128, 10240],
    defaultLambdaDurationMs: [0, 900000],
  };
  for (const key of Object.keys(ranges) as (keyof UsageAssumptions)[]) {
    const value = options[key];
    if (value === undefined) continue;
    const [min, max] = ranges[key];
    if (!Number.isFinite(value) || value < min || value > max) {
      throw new RangeError(`option ${key} must be a number from ${min} to ${max}, got ${value}`);
    }
    assumptions[key] = value;
  }
  return assumptions;
}
