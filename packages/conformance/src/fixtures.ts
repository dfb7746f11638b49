import { ConformanceOptionsError } from "./conformance-options-error.js";

/** A resource the plugin under test claims to price. */
export interface ResourceFixture {
  /** Provider, e.g. `aws`. */
  readonly provider: string;
  /** Resource type, e.g. `ec2`. */
  readonly resourceType: string;
  /** SKU or size, e.g. `t3.micro`; may be empty. */
  readonly sku: string;
  /** Region, e.g. `us-east-1`; may be empty. */
  readonly region: string;
  /** Tag hints, e.g. `{ size_gb: "100" }`. */
  readonly tags: Readonly<Record<string, string>>;
}

/** A resource with actual costs in a time range, for plugins that serve GetActualCost. */
export interface ActualCostFixture {
  /** The plugin-specific resource id. */
  readonly resourceId: string;
  /** Start of the range (inclusive). */
  readonly start: Date;
  /** End of the range (exclusive); after `start`. */
  readonly end: Date;
  /** Optional tag filters sent with the request. */
  readonly tags: Readonly<Record<string, string>>;
}

/** Everything the checks feed to a plugin besides generated probes. */
export interface ConformanceFixtures {
  /** Resources the plugin prices: Supports must say yes, costs and specs must be valid. */
  readonly resources: readonly ResourceFixture[];
  /** A resource with actual costs; without it the actual-cost result checks are skipped. */
  readonly actualCost?: ActualCostFixture;
}

/**
 * Parses `provider/type/sku/region`, optionally followed by `?key=value&...` tags
 * (e.g. `aws/ebs/gp3/us-east-1?size_gb=100`). Sku and region may be left out or empty. A
 * resource type containing slashes (`aws/aws:ec2/instance:Instance/t3.micro/us-east-1`) works
 * when all four parts are given: the first part is the provider, the last two sku and region.
 */
export function resourceFixtureFromString(value: string): ResourceFixture {
  const queryAt = value.indexOf("?");
  const path = queryAt === -1 ? value : value.slice(0, queryAt);
  const query = queryAt === -1 ? "" : value.slice(queryAt + 1);
  const parts = path.split("/").map((part) => decodeURIComponent(part.trim()));
  if (parts.length < 2) {
    throw new ConformanceOptionsError(
      `resource "${value}" must look like provider/type/sku/region (sku and region optional)`,
    );
  }
  const [provider = "", ...rest] = parts;
  let resourceType: string;
  let sku = "";
  let region = "";
  if (rest.length <= 3) {
    [resourceType = "", sku = "", region = ""] = rest;
  } else {
    region = rest.pop() ?? "";
    sku = rest.pop() ?? "";
    resourceType = rest.join("/");
  }
  if (provider === "" || resourceType === "") {
    throw new ConformanceOptionsError(`resource "${value}" needs a provider and a resource type`);
  }
  const tags: Record<string, string> = {};
  for (const [key, tagValue] of new URLSearchParams(query)) tags[key] = tagValue;
  return { provider, resourceType, sku, region, tags };
}

/** The `provider/type/sku/region` label of a fixture, as used in failure messages. */
export function labelFromResourceFixture(resource: ResourceFixture): string {
  return [resource.provider, resource.resourceType, resource.sku, resource.region].join("/");
}

/**
 * Builds an actual-cost fixture from a resource id and an optional ISO 8601 interval
 * `start/end`. Without a range: the three whole UTC days before today.
 */
export function actualCostFixtureFromString(
  resourceId: string,
  range: string | undefined,
  now: Date = new Date(),
): ActualCostFixture {
  if (resourceId.trim() === "") {
    throw new ConformanceOptionsError("the actual-cost resource id must not be empty");
  }
  if (range === undefined) {
    const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    return { resourceId, start: new Date(end.getTime() - 3 * DAY_MS), end, tags: {} };
  }
  const [startText, endText, ...extra] = range.split("/");
  if (startText === undefined || endText === undefined || extra.length > 0) {
    throw new ConformanceOptionsError(`actual-cost range "${range}" must look like start/end`);
  }
  return {
    resourceId,
    start: dateFromText(startText, "actual-cost range start"),
    end: dateFromText(endText, "actual-cost range end"),
    tags: {},
  };
}

/** Checks that an actual-cost fixture's range is ordered; returns it unchanged. */
export function validateActualCostFixture(fixture: ActualCostFixture): ActualCostFixture {
  if (fixture.end.getTime() <= fixture.start.getTime()) {
    throw new ConformanceOptionsError(
      `actual-cost range ${fixture.start.toISOString()}/${fixture.end.toISOString()} must end after it starts`,
    );
  }
  return fixture;
}

/** Parses a date in ISO 8601 / RFC 3339 form; `what` names it in the error. */
export function dateFromText(text: string, what: string): Date {
  const date = new Date(text.trim());
  if (text.trim() === "" || Number.isNaN(date.getTime())) {
    throw new ConformanceOptionsError(`${what} "${text}" is not an ISO 8601 date`);
  }
  return date;
}

const DAY_MS = 24 * 60 * 60 * 1000;
