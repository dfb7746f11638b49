import { create } from "@bufbuild/protobuf";
import type { ResourceDescriptor } from "@costplugin/proto";
import { ResourceDescriptorSchema } from "@costplugin/proto";
import type { ResourceInput } from "./playground-state.js";
import { tagsFromRows } from "./playground-state.js";

/** The ResourceDescriptor for a form: fields trimmed, blank tag keys dropped. */
export function descriptorFromInput(input: ResourceInput): ResourceDescriptor {
  return create(ResourceDescriptorSchema, {
    provider: input.provider.trim(),
    resourceType: input.resourceType.trim(),
    sku: input.sku.trim(),
    region: input.region.trim(),
    tags: tagsFromRows(input.tags),
  });
}

/** A stable key of a resource (used to match pins with their prices). */
export function resourceKey(input: ResourceInput): string {
  const d = descriptorFromInput(input);
  const tags = Object.entries(d.tags).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([d.provider, d.resourceType, d.sku, d.region, tags]);
}
