import { readFile } from "node:fs/promises";
import { parse } from "yaml";
import { ConformanceOptionsError } from "./conformance-options-error.js";
import type { ActualCostFixture, ConformanceFixtures, ResourceFixture } from "./fixtures.js";
import { dateFromText, validateActualCostFixture } from "./fixtures.js";

/**
 * Reads a fixtures file, YAML or JSON (JSON is read as YAML, its superset):
 *
 * ```yaml
 * resources:
 *   - { provider: aws, resourceType: ec2, sku: t3.micro, region: us-east-1 }
 *   - { provider: aws, resource_type: ebs, sku: gp3, region: us-east-1, tags: { size_gb: "100" } }
 * actualCost:
 *   resourceId: i-0abc
 *   start: 2025-01-01T00:00:00Z
 *   end: 2025-01-04T00:00:00Z
 * ```
 *
 * Both camelCase and snake_case keys are accepted, as in the protobuf JSON mapping.
 */
export async function loadFixturesFile(path: string): Promise<ConformanceFixtures> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new ConformanceOptionsError(
      `cannot read fixtures file ${path}: ${(error as Error).message}`,
    );
  }
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw new ConformanceOptionsError(
      `fixtures file ${path} is not valid YAML or JSON: ${(error as Error).message}`,
    );
  }
  return fixturesFromDocument(document, path);
}

/** Validates a parsed fixtures document; `source` names it in error messages. */
export function fixturesFromDocument(document: unknown, source: string): ConformanceFixtures {
  const root = asRecord(document ?? {}, source);
  const resourcesValue = root.resources ?? [];
  if (!Array.isArray(resourcesValue)) {
    throw new ConformanceOptionsError(`${source}: "resources" must be a list`);
  }
  const resources = resourcesValue.map((entry, index) =>
    resourceFromDocument(entry, `${source}: resources[${index}]`),
  );
  const actualValue = root.actualCost ?? root.actual_cost;
  const actualCost =
    actualValue === undefined || actualValue === null
      ? undefined
      : actualCostFromDocument(actualValue, `${source}: actualCost`);
  return actualCost ? { resources, actualCost } : { resources };
}

function resourceFromDocument(value: unknown, where: string): ResourceFixture {
  const record = asRecord(value, where);
  const provider = stringField(record, ["provider"], where, true);
  const resourceType = stringField(record, ["resourceType", "resource_type"], where, true);
  return {
    provider,
    resourceType,
    sku: stringField(record, ["sku"], where, false),
    region: stringField(record, ["region"], where, false),
    tags: tagsField(record, where),
  };
}

function actualCostFromDocument(value: unknown, where: string): ActualCostFixture {
  const record = asRecord(value, where);
  return validateActualCostFixture({
    resourceId: stringField(record, ["resourceId", "resource_id"], where, true),
    start: dateField(record, "start", where),
    end: dateField(record, "end", where),
    tags: tagsField(record, where),
  });
}

function asRecord(value: unknown, where: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ConformanceOptionsError(`${where} must be a mapping`);
  }
  return value as Record<string, unknown>;
}

function stringField(
  record: Record<string, unknown>,
  keys: readonly string[],
  where: string,
  required: boolean,
): string {
  for (const key of keys) {
    const value = record[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== "string" && typeof value !== "number") {
      throw new ConformanceOptionsError(`${where}.${key} must be a string`);
    }
    const text = String(value);
    if (required && text.trim() === "") {
      throw new ConformanceOptionsError(`${where}.${key} must not be empty`);
    }
    return text;
  }
  if (required) throw new ConformanceOptionsError(`${where}.${keys[0]} is required`);
  return "";
}

function dateField(record: Record<string, unknown>, key: string, where: string): Date {
  const value = record[key];
  if (value instanceof Date) return value;
  if (typeof value !== "string") {
    throw new ConformanceOptionsError(`${where}.${key} must be an ISO 8601 date`);
  }
  return dateFromText(value, `${where}.${key}`);
}

function tagsField(record: Record<string, unknown>, where: string): Record<string, string> {
  const value = record.tags;
  if (value === undefined || value === null) return {};
  const tags = asRecord(value, `${where}.tags`);
  const result: Record<string, string> = {};
  for (const [key, tagValue] of Object.entries(tags)) {
    if (
      typeof tagValue !== "string" &&
      typeof tagValue !== "number" &&
      typeof tagValue !== "boolean"
    ) {
      throw new ConformanceOptionsError(`${where}.tags.${key} must be a string`);
    }
    result[key] = String(tagValue);
  }
  return result;
}
