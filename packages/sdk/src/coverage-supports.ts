import type { MessageInitShape } from "@bufbuild/protobuf";
import type { ResourceDescriptor, SupportsResponseSchema } from "@costplugin/proto";
import type { PluginCoverage } from "./plugin.js";

/**
 * Answers Supports from a plugin's declared coverage. Providers, resource types and regions are
 * compared case-insensitively; a resource without a region is not constrained by `regions`
 * (it asks whether the type is supported at all). The reason always names what is covered.
 */
export function supportsFromCoverage(
  coverage: PluginCoverage,
  resource: ResourceDescriptor,
): MessageInitShape<typeof SupportsResponseSchema> {
  const provider = resource.provider.toLowerCase();
  const resourceType = resource.resourceType.toLowerCase();
  const region = resource.region.toLowerCase();
  if (!includes(coverage.providers, provider)) {
    return notSupported(
      `provider ${quote(resource.provider)} is not covered; covered: ${list(coverage.providers)}`,
    );
  }
  if (!includes(coverage.resourceTypes, resourceType)) {
    return notSupported(
      `resource type ${quote(resource.resourceType)} is not covered; covered: ${list(coverage.resourceTypes)}`,
    );
  }
  const regions = coverage.regions ?? [];
  if (region !== "" && regions.length > 0 && !includes(regions, region)) {
    return notSupported(
      `region ${quote(resource.region)} is not covered for ${provider}/${resourceType}; covered: ${list(regions)}`,
    );
  }
  const where = region === "" ? "" : ` in ${region}`;
  return { supported: true, reason: `${provider}/${resourceType}${where} is covered` };
}

function notSupported(reason: string): MessageInitShape<typeof SupportsResponseSchema> {
  return { supported: false, reason };
}

function includes(values: readonly string[], lowerCased: string): boolean {
  return values.some((value) => value.toLowerCase() === lowerCased);
}

function list(values: readonly string[]): string {
  return values.length === 0 ? "none" : values.join(", ");
}

// Request values are already bounded and free of control characters (validate-resource.ts);
// quoting still makes their start and end unambiguous in the reason.
function quote(value: string): string {
  return JSON.stringify(value);
}
