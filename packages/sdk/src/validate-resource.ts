import type { ResourceDescriptor } from "@costplugin/proto";
import { ErrorCode } from "@costplugin/proto";
import { PluginError } from "./plugin-error.js";
import type { RequestLimits } from "./request-limits.js";

// C0 control characters and DEL: never part of a provider, type, SKU, region or identifier, and
// dangerous in the logs and reasons these values end up in.
function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Throws INVALID_RESOURCE naming `field`. */
export function invalidResource(field: string, message: string): PluginError {
  return new PluginError(ErrorCode.INVALID_RESOURCE, message, { details: { field } });
}

/**
 * Checks an identifier-like string: not longer than `maxLength`, no control characters, and,
 * when `required`, not empty or blank.
 */
export function validateIdentifier(
  value: string,
  field: string,
  maxLength: number,
  required: boolean,
): void {
  if (required && value.trim() === "") {
    throw invalidResource(field, `${field} is required and must not be empty`);
  }
  if (value.length > maxLength) {
    throw invalidResource(
      field,
      `${field} is ${value.length} characters long; at most ${maxLength} are allowed`,
    );
  }
  if (hasControlCharacter(value)) {
    throw invalidResource(field, `${field} contains a control character`);
  }
}

/** Checks a tags map against the entry count and key/value length limits. */
export function validateTags(
  tags: Readonly<Record<string, string>>,
  field: string,
  limits: RequestLimits,
): void {
  const keys = Object.keys(tags);
  if (keys.length > limits.maxTags) {
    throw invalidResource(
      field,
      `${field} has ${keys.length} entries; at most ${limits.maxTags} are allowed`,
    );
  }
  for (const key of keys) {
    if (key.length > limits.maxTagKeyLength) {
      throw invalidResource(
        field,
        `a key of ${field} is ${key.length} characters long; at most ${limits.maxTagKeyLength} are allowed`,
      );
    }
    if (hasControlCharacter(key)) {
      throw invalidResource(field, `a key of ${field} contains a control character`);
    }
    const value = tags[key] ?? "";
    if (value.length > limits.maxTagValueLength) {
      throw invalidResource(
        field,
        `the value of ${field}[${JSON.stringify(key)}] is ${value.length} characters long; at most ${limits.maxTagValueLength} are allowed`,
      );
    }
  }
}

/**
 * Validates the `resource` of Supports, GetProjectedCost and GetPricingSpec: present, with a
 * non-blank provider and resource_type, and every field and tag within the limits.
 */
export function validateResource(
  resource: ResourceDescriptor | undefined,
  limits: RequestLimits,
): asserts resource is ResourceDescriptor {
  if (resource === undefined) {
    throw invalidResource("resource", "resource is required");
  }
  validateIdentifier(resource.provider, "resource.provider", limits.maxFieldLength, true);
  validateIdentifier(resource.resourceType, "resource.resource_type", limits.maxFieldLength, true);
  validateIdentifier(resource.sku, "resource.sku", limits.maxFieldLength, false);
  validateIdentifier(resource.region, "resource.region", limits.maxFieldLength, false);
  validateTags(resource.tags, "resource.tags", limits);
}
