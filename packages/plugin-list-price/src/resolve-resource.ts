import type { ResourceDescriptor } from "@costplugin/proto";
import { ErrorCode } from "@costplugin/proto";
import { PluginError } from "@costplugin/sdk";
import type { Catalogue, CatalogueEntry, CatalogueService } from "./catalogue.js";
import type { ProviderId } from "./catalogue-schema.js";
import { nearestNames } from "./nearest-names.js";
import { describeKnownProviders, providerAliases, providerFromInput } from "./providers.js";
import { quoteInput, truncateInput } from "./quote-input.js";
import type { ResourceTypeMatch } from "./resource-types.js";
import { resourceTypeMatches } from "./resource-types.js";
import { regionSpellings, skuSpellings } from "./spellings.js";
import { findTag } from "./tags.js";

/** Tags read for the region when `region` is empty, in precedence order. */
export const regionTagNames = ["region", "location", "zone", "availability_zone"] as const;
/** Tags read for the operating system of a machine, in precedence order. */
export const operatingSystemTagNames = ["os", "operating_system", "os_type", "platform"] as const;
/** Operating systems priced at the plain Linux rate (no licence charge). */
export const linuxOperatingSystems = [
  "linux",
  "ubuntu",
  "debian",
  "amazon-linux",
  "amazon_linux",
  "al2",
  "al2023",
  "centos",
  "rocky",
  "almalinux",
  "fedora",
] as const;

/** Tags read for the SKU when `sku` is empty, per canonical resource type, in precedence order. */
export const skuTagNames: ReadonlyMap<string, readonly string[]> = new Map([
  ["ec2", ["instance_type"]],
  ["ebs", ["volume_type", "type"]],
  ["s3", ["storage_class"]],
  ["rds", ["instance_class", "db_instance_class"]],
  ["lambda", ["architecture", "architectures"]],
  ["vm", ["vm_size", "size"]],
  ["compute", ["machine_type"]],
]);

/** A provider and resource type resolved against the catalogue. */
export interface ResolvedService {
  /** The catalogue service that prices the resource type. */
  readonly service: CatalogueService;
  /** The spelling of the resource type that matched. */
  readonly match: ResourceTypeMatch;
}

/** A resource resolved down to one catalogue price. */
export interface ResolvedResource extends ResolvedService {
  /** The price. */
  readonly entry: CatalogueEntry;
  /** Where the SKU came from: `sku`, `tag <name>` or `default`. */
  readonly skuOrigin: string;
}

/**
 * Resolves the provider and resource type. Throws INVALID_PROVIDER for an unknown provider,
 * INVALID_RESOURCE for an unknown resource type or one of another provider, RESOURCE_NOT_FOUND
 * for a machine whose operating system is not priced (the catalogue is Linux-only).
 */
export function resolveService(
  catalogue: Catalogue,
  resource: ResourceDescriptor,
): ResolvedService {
  const provider = providerFromInput(resource.provider);
  if (!provider || !catalogue.services.some((service) => service.provider === provider)) {
    const known = knownProviders(catalogue);
    throw new PluginError(
      ErrorCode.INVALID_PROVIDER,
      `provider ${quoteInput(resource.provider)} is not in the catalogue; known providers: ${describeKnownProviders(known)}`,
      {
        details: { provider: truncateInput(resource.provider), known_providers: known.join(",") },
      },
    );
  }
  const matches = resourceTypeMatches(resource.resourceType);
  const match = matches.find((candidate) => candidate.definition.provider === provider);
  const service = match && catalogue.service(provider, match.definition.resourceType);
  if (!match || !service) {
    const other = matches.find((candidate) => candidate.definition.provider !== provider);
    if (other) {
      throw new PluginError(
        ErrorCode.INVALID_RESOURCE,
        `resource type ${quoteInput(resource.resourceType)} belongs to provider ${other.definition.provider}, not ${provider}`,
        {
          details: {
            provider,
            resource_type: truncateInput(resource.resourceType),
            expected_provider: other.definition.provider,
          },
        },
      );
    }
    const known = catalogue.services
      .filter((candidate) => candidate.provider === provider)
      .map((candidate) => candidate.resourceType);
    throw new PluginError(
      ErrorCode.INVALID_RESOURCE,
      `resource type ${quoteInput(resource.resourceType)} is not in the catalogue for ${provider}; known types: ${known.join(", ")} (also as Terraform types, Pulumi tokens and CloudFormation types)`,
      {
        details: {
          provider,
          resource_type: truncateInput(resource.resourceType),
          known_resource_types: known.join(","),
        },
      },
    );
  }
  checkOperatingSystem(service, match, resource);
  return { service, match };
}

/**
 * The catalogue's spelling of the resource's region (from `region`, else from a region tag).
 * Throws INVALID_RESOURCE when there is none, UNSUPPORTED_REGION when it has no prices.
 */
export function resolveRegion(service: CatalogueService, resource: ResourceDescriptor): string {
  const input = regionInput(resource);
  const label = `${service.provider}/${service.resourceType}`;
  if (input === undefined) {
    throw new PluginError(
      ErrorCode.INVALID_RESOURCE,
      `region is empty; ${label} is priced in: ${service.regions.join(", ")}`,
      { details: { provider: service.provider, resource_type: service.resourceType } },
    );
  }
  for (const spelling of regionSpellings(service.provider, input)) {
    const region = service.regions.find((known) => known === spelling);
    if (region) return region;
  }
  throw new PluginError(
    ErrorCode.UNSUPPORTED_REGION,
    `region ${quoteInput(input)} is not in the catalogue for ${label}; known regions: ${service.regions.join(", ")}`,
    {
      details: {
        provider: service.provider,
        resource_type: service.resourceType,
        region: truncateInput(input),
        known_regions: service.regions.join(","),
      },
    },
  );
}

/** The region the caller named (field first, then tags), or undefined when none. */
export function regionInput(resource: ResourceDescriptor): string | undefined {
  if (resource.region.trim() !== "") return resource.region;
  const tag = findTag(resource.tags, regionTagNames);
  return tag && tag.value.trim() !== "" ? tag.value : undefined;
}

/** The SKU the caller named (field first, then tags), or undefined when none. */
export function skuInput(
  service: CatalogueService,
  resource: ResourceDescriptor,
): { readonly sku: string; readonly origin: string } | undefined {
  if (resource.sku.trim() !== "") return { sku: resource.sku, origin: "sku" };
  const tag = findTag(resource.tags, skuTagNames.get(service.resourceType) ?? []);
  if (tag && tag.value.trim() !== "") return { sku: tag.value, origin: `tag ${tag.name}` };
  return undefined;
}

/**
 * The price of the resource's SKU (from `sku`, else a SKU tag, else the service's default) in
 * `region`. Throws INVALID_RESOURCE when the SKU is required and missing, RESOURCE_NOT_FOUND
 * naming the nearest known SKUs when it has no price.
 */
export function resolveEntry(
  service: CatalogueService,
  region: string,
  resource: ResourceDescriptor,
): { readonly entry: CatalogueEntry; readonly skuOrigin: string } {
  const label = `${service.provider}/${service.resourceType}`;
  const named = skuInput(service, resource);
  const known = service.skus(region);
  if (!named) {
    const fallback = service.defaultSku && service.find(region, service.defaultSku);
    if (fallback) return { entry: fallback, skuOrigin: "default" };
    throw new PluginError(
      ErrorCode.INVALID_RESOURCE,
      `sku is empty; give the ${service.skuKind} of ${label}, e.g. ${known.slice(0, 3).join(", ")}`,
      { details: { provider: service.provider, resource_type: service.resourceType } },
    );
  }
  for (const spelling of skuSpellings(service.resourceType, named.sku)) {
    const entry = service.find(region, spelling);
    if (entry) return { entry, skuOrigin: named.origin };
  }
  const nearest = nearestNames(known, named.sku);
  throw new PluginError(
    ErrorCode.RESOURCE_NOT_FOUND,
    `${service.skuKind} ${quoteInput(named.sku)} is not in the catalogue for ${label} in ${region} (${known.length} listed); nearest known: ${nearest.join(", ")}`,
    {
      details: {
        provider: service.provider,
        resource_type: service.resourceType,
        region,
        sku: truncateInput(named.sku),
        nearest_skus: nearest.join(","),
      },
    },
  );
}

/** Resolves a resource down to one price, or throws the PluginError that says why not. */
export function resolveResource(
  catalogue: Catalogue,
  resource: ResourceDescriptor,
): ResolvedResource {
  const resolved = resolveService(catalogue, resource);
  const region = resolveRegion(resolved.service, resource);
  return { ...resolved, ...resolveEntry(resolved.service, region, resource) };
}

function checkOperatingSystem(
  service: CatalogueService,
  match: ResourceTypeMatch,
  resource: ResourceDescriptor,
): void {
  if (!match.definition.hasOperatingSystem) return;
  const label = `${service.provider}/${service.resourceType}`;
  if (match.alias.operatingSystem === "windows") {
    throw new PluginError(
      ErrorCode.RESOURCE_NOT_FOUND,
      `only Linux prices are in the catalogue for ${label}; ${match.alias.alias} is a Windows machine, whose licence charge is not priced here`,
      {
        details: { provider: service.provider, resource_type: service.resourceType, os: "windows" },
      },
    );
  }
  if (match.alias.operatingSystem === "linux") return;
  const tag = findTag(resource.tags, operatingSystemTagNames);
  const os = tag?.value.trim().toLowerCase();
  if (!tag || !os || (linuxOperatingSystems as readonly string[]).includes(os)) return;
  throw new PluginError(
    ErrorCode.RESOURCE_NOT_FOUND,
    `only Linux prices without a licence charge are in the catalogue for ${label}; tag ${quoteInput(tag.name)} says ${quoteInput(tag.value)}`,
    {
      details: {
        provider: service.provider,
        resource_type: service.resourceType,
        os: truncateInput(tag.value),
      },
    },
  );
}

function knownProviders(catalogue: Catalogue): ProviderId[] {
  return (Object.keys(providerAliases) as ProviderId[]).filter((provider) =>
    catalogue.services.some((service) => service.provider === provider),
  );
}
