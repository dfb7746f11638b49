import { ErrorCode } from "@costplugin/proto";
import { PluginError } from "@costplugin/sdk";
import { quoteInput, truncateInput } from "./quote-input.js";

/** A tag found on a resource. */
export interface FoundTag {
  /** The tag name as the caller wrote it. */
  readonly name: string;
  /** The tag value. */
  readonly value: string;
}

/**
 * The first of `names` present in `tags` (names compared case-insensitively), in the order of
 * `names`: the order is the precedence when a resource carries several spellings.
 */
export function findTag(
  tags: Readonly<Record<string, string>>,
  names: readonly string[],
): FoundTag | undefined {
  const byLowerName = new Map<string, FoundTag>();
  for (const [name, value] of Object.entries(tags)) {
    const lower = name.toLowerCase();
    if (!byLowerName.has(lower)) byLowerName.set(lower, { name, value });
  }
  for (const name of names) {
    const found = byLowerName.get(name);
    if (found) return found;
  }
  return undefined;
}

/** What a numeric tag holds and which values are accepted. */
export interface QuantityTag {
  /** Accepted tag names, lower case, in precedence order. */
  readonly names: readonly string[];
  /** Smallest accepted value. */
  readonly min: number;
  /** Largest accepted value. */
  readonly max: number;
  /** What the number counts, for messages, e.g. "GB". */
  readonly unit: string;
}

/** A number read from a tag. */
export interface TagQuantity {
  /** The value. */
  readonly value: number;
  /** The tag name as the caller wrote it. */
  readonly tag: string;
}

const decimalNumber = /^(?:\d+(?:\.\d+)?|\.\d+)(?:e\+?\d+)?$/i;

/**
 * The number held by the first tag of `spec.names` present on the resource, or undefined when
 * none is present. A present tag that is not a plain decimal number (`100`, `2.5`, `1e6`)
 * within `[min, max]` is an INVALID_RESOURCE naming the tag: an empty or malformed size is a
 * mistake worth reporting, not a reason to fall back silently to a default.
 */
export function readQuantityTag(
  tags: Readonly<Record<string, string>>,
  spec: QuantityTag,
): TagQuantity | undefined {
  const found = findTag(tags, spec.names);
  if (!found) return undefined;
  const text = found.value.trim();
  const value = decimalNumber.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(value) || value < spec.min || value > spec.max) {
    throw new PluginError(
      ErrorCode.INVALID_RESOURCE,
      `tag ${quoteInput(found.name)} must be a number of ${spec.unit} from ${spec.min} to ${spec.max}, got ${quoteInput(found.value)}`,
      { details: { tag: truncateInput(found.name), value: truncateInput(found.value) } },
    );
  }
  return { value, tag: found.name };
}
