import type { MessageInitShape } from "@bufbuild/protobuf";
import type { ResourceDescriptor, SupportsResponseSchema } from "@costplugin/proto";
import { PluginError } from "@costplugin/sdk";
import type { Catalogue } from "./catalogue.js";
import {
  regionInput,
  resolveEntry,
  resolveRegion,
  resolveService,
  skuInput,
} from "./resolve-resource.js";

/**
 * The Supports answer for a resource, as precise as the descriptor allows: with only provider
 * and resource type it says whether the type is priced and where; with a region it checks the
 * region; with a SKU (or a default SKU) it checks the price itself. A negative answer's reason
 * is the same sentence GetProjectedCost would fail with, naming what is known.
 */
export function supportsAnswer(
  catalogue: Catalogue,
  resource: ResourceDescriptor,
): MessageInitShape<typeof SupportsResponseSchema> {
  try {
    const { service } = resolveService(catalogue, resource);
    const label = `${service.provider}/${service.resourceType}`;
    if (regionInput(resource) === undefined) {
      const missing =
        service.defaultSku === undefined
          ? `a region and ${withArticle(service.skuKind)}`
          : `a region (the ${service.skuKind} defaults to ${service.defaultSku})`;
      return {
        supported: true,
        reason: `${label} is priced in ${service.regions.length} regions: ${service.regions.join(", ")}; name ${missing} for a price`,
      };
    }
    const region = resolveRegion(service, resource);
    if (!skuInput(service, resource) && service.defaultSku === undefined) {
      return {
        supported: true,
        reason: `${label} is priced in ${region} for ${service.skus(region).length} ${service.skuKind}s; name ${withArticle(service.skuKind)} for a price`,
      };
    }
    const { entry } = resolveEntry(service, region, resource);
    return {
      supported: true,
      reason: `${label} ${entry.sku} in ${entry.region} has a list price (as of ${entry.asOf})`,
    };
  } catch (error) {
    if (error instanceof PluginError) return { supported: false, reason: error.message };
    throw error;
  }
}

/** `an instance type`, `a VM size`: the noun with its indefinite article. */
function withArticle(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? "an" : "a"} ${noun}`;
}
