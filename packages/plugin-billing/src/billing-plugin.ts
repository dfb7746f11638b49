import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { ActualCostResult } from "@costplugin/proto";
import { ErrorCode } from "@costplugin/proto";
import type { CostSourcePlugin, HealthReport } from "@costplugin/sdk";
import { definePlugin, PluginError } from "@costplugin/sdk";
import type { BillingStore, StoredCost, StoredDimension } from "./billing-store.js";
import { tagsOfStored } from "./billing-store.js";
import { splitTag } from "./cost-row.js";
import { addDays, dayOf, dayStartMs } from "./day.js";
import { divideAmount, multiplyAmount, sumAmounts } from "./decimal-amount.js";

/** Options of `createBillingPlugin`. */
export interface BillingPluginOptions {
  /** The store the pulls fill. */
  readonly store: BillingStore;
  /** The configured source name: rows are read for it and results carry it. */
  readonly source: string;
  /** Age of the last successful pull beyond which HealthCheck answers NOT_SERVING. */
  readonly staleAfterMs: number;
  /** Days of actual cost the projection averages. Default 7. */
  readonly projectionDays?: number;
  /** The clock. Default: `() => new Date()`. */
  readonly now?: () => Date;
  /** Called by the plugin's `close` (e.g. to close the store). */
  readonly onClose?: () => Promise<void>;
}

/** Hours in a month used for projections: the 730 of the public plugins. */
export const hoursPerMonth = 730;

// The widest range one GetActualCost may ask for: ten years of daily buckets.
const maxRangeDays = 3660;

/**
 * The billing-data plugin: answers from the store that `costplugin-billing pull` fills. Never
 * calls the vendor while serving.
 */
export function createBillingPlugin(options: BillingPluginOptions): CostSourcePlugin {
  const now = options.now ?? (() => new Date());
  const projectionDays = options.projectionDays ?? 7;
  const { store, source } = options;

  return definePlugin({
    name: `costplugin-billing (${source})`,

    async getActualCost(request) {
      const resourceId = request.resourceId.trim();
      if (resourceId === "" || resourceId.length > 512) {
        throw new PluginError(
          ErrorCode.INVALID_RESOURCE,
          "resource_id is required (at most 512 characters)",
        );
      }
      if (request.start === undefined || request.end === undefined) {
        throw new PluginError(ErrorCode.INVALID_TIME_RANGE, "start and end are required");
      }
      const startMs = timestampDate(request.start).getTime();
      const endMs = timestampDate(request.end).getTime();
      if (!Number.isFinite(startMs) || !Number.isFinite(endMs) || endMs <= startMs) {
        throw new PluginError(ErrorCode.INVALID_TIME_RANGE, "end must be after start");
      }
      // Half-open [start, end): every day bucket that overlaps it, whole-day amounts.
      const fromDay = dayOf(startMs);
      const toDayExclusive = addDays(dayOf(endMs - 1), 1);
      if (dayStartMs(toDayExclusive) - dayStartMs(fromDay) > maxRangeDays * 86_400_000) {
        throw new PluginError(
          ErrorCode.INVALID_TIME_RANGE,
          `the range must not exceed ${maxRangeDays} days`,
        );
      }
      const filters = Object.entries(request.tags);
      const stored = await store.costsOfResource(source, resourceId, fromDay, toDayExclusive);
      const rows =
        filters.length === 0
          ? stored
          : stored.filter((row) => filters.every(([key, value]) => hasTag(row, key, value)));
      if (rows.length === 0 && !(await store.hasResource(source, resourceId))) {
        throw new PluginError(
          ErrorCode.RESOURCE_NOT_FOUND,
          `no billing data for resource "${resourceId}" in source "${source}"`,
          { details: { resource_id: resourceId, source } },
        );
      }
      return { results: dailyResults(rows, source) };
    },

    async supports(request) {
      const resource = request.resource;
      if (!resource || resource.provider === "" || resource.resourceType === "") {
        return { supported: false, reason: "provider and resource_type are required" };
      }
      const dims = await store.dimensions(source);
      const matches = matchDimensions(
        dims,
        resource.provider,
        resource.resourceType,
        resource.region,
      );
      if (matches.length > 0) return { supported: true, reason: "" };
      return { supported: false, reason: unsupportedReason(dims, source, resource) };
    },

    async getProjectedCost(request) {
      const resource = request.resource;
      if (!resource || resource.provider === "" || resource.resourceType === "") {
        throw new PluginError(
          ErrorCode.INVALID_RESOURCE,
          "provider and resource_type are required",
        );
      }
      const dims = matchDimensions(
        await store.dimensions(source),
        resource.provider,
        resource.resourceType,
        resource.region,
      );
      if (dims.length === 0) {
        throw new PluginError(
          ErrorCode.RESOURCE_NOT_FOUND,
          unsupportedReason(await store.dimensions(source), source, resource),
        );
      }
      const lastDay = await store.lastDayOf(source, dims);
      if (lastDay === null) {
        throw new PluginError(
          ErrorCode.RESOURCE_NOT_FOUND,
          unsupportedReason(await store.dimensions(source), source, resource),
        );
      }
      const firstDay = addDays(lastDay, -(projectionDays - 1));
      const wantedResource = resource.tags.resource_id;
      const filters = Object.entries(resource.tags).filter(([key]) => key !== "resource_id");
      const rows = (await store.costsOfDimensions(source, dims, firstDay, lastDay)).filter(
        (row) =>
          (wantedResource === undefined || row.resourceId === wantedResource) &&
          filters.every(([key, value]) => hasTag(row, key, value)),
      );
      if (rows.length === 0) {
        throw new PluginError(
          ErrorCode.RESOURCE_NOT_FOUND,
          `no billing data matches the resource between ${firstDay} and ${lastDay} in source "${source}"`,
        );
      }
      const currencies = [...new Set(rows.map((r) => r.currency))];
      if (currencies.length > 1) {
        throw new PluginError(
          ErrorCode.INVALID_RESOURCE,
          `the matching rows are in several currencies (${currencies.join(", ")}): narrow the resource with region or tags`,
        );
      }
      const resourceDays = new Set(rows.map((r) => `${r.resourceId}\u0000${r.day}`)).size;
      const resources = new Set(rows.map((r) => r.resourceId)).size;
      const total = sumAmounts(rows.map((r) => r.amount));
      const daily = divideAmount(total, resourceDays, 12);
      const hourly = divideAmount(daily, 24, 12);
      const monthly = multiplyAmount(hourly, hoursPerMonth);
      return {
        unitPrice: Number(hourly),
        currency: currencies[0] ?? "",
        costPerMonth: Number(divideAmount(monthly, 1, 6)),
        billingDetail: `projection from actual spend: mean daily cost of ${resources} matching resource${resources === 1 ? "" : "s"} over ${resourceDays} resource-day${resourceDays === 1 ? "" : "s"} from ${firstDay} to ${lastDay}, times ${hoursPerMonth} / 24`,
      };
    },

    async health(): Promise<HealthReport> {
      let lastSuccessAt: string | null;
      try {
        await store.ping();
        lastSuccessAt = (await store.pullState(source)).lastSuccessAt;
      } catch {
        return { status: "not_serving", message: "the billing store is unreachable" };
      }
      if (lastSuccessAt === null) {
        return {
          status: "not_serving",
          message: `no successful pull yet for source "${source}": run costplugin-billing pull`,
        };
      }
      const ageMs = now().getTime() - Date.parse(lastSuccessAt);
      if (ageMs > options.staleAfterMs) {
        return {
          status: "not_serving",
          message: `billing data is stale: the last successful pull was ${formatAge(ageMs)} ago (${lastSuccessAt}), more than the ${formatAge(options.staleAfterMs)} allowed`,
        };
      }
      return { status: "serving", message: `last successful pull at ${lastSuccessAt}` };
    },

    async close() {
      await options.onClose?.();
    },
  });
}

function hasTag(row: StoredCost, key: string, value: string): boolean {
  return tagsOfStored(row).some((tag) => {
    const parsed = splitTag(tag);
    return parsed.key === key && parsed.value === value;
  });
}

/**
 * One result per day, as finished messages: the SDK passes them through instead of building
 * each of the (often 365) results again from a plain object.
 */
function dailyResults(rows: readonly StoredCost[], source: string): ActualCostResult[] {
  const results: ActualCostResult[] = [];
  // Rows arrive ordered by day: walk them once, one group per day.
  for (let i = 0; i < rows.length; ) {
    const first = rows[i] as StoredCost;
    let j = i + 1;
    while (j < rows.length && (rows[j] as StoredCost).day === first.day) j += 1;
    let cost: string;
    let usage: string | null = first.usageAmount;
    if (j === i + 1) {
      cost = first.amount;
    } else {
      const group = rows.slice(i, j);
      for (const row of group) {
        if (row.currency !== first.currency) {
          throw new PluginError(
            ErrorCode.DATA_CORRUPTION,
            `the rows of ${first.day} are in several currencies (${first.currency}, ${row.currency}) and cannot be added`,
          );
        }
      }
      cost = sumAmounts(group.map((r) => r.amount));
      const sameUnit = group.every(
        (r) => r.usageAmount !== null && r.usageUnit === first.usageUnit,
      );
      usage = sameUnit ? sumAmounts(group.map((r) => r.usageAmount as string)) : null;
    }
    i = j;
    results.push({
      $typeName: "costplugin.v1.ActualCostResult",
      timestamp: {
        $typeName: "google.protobuf.Timestamp",
        seconds: dayStartSeconds(first.day),
        nanos: 0,
      },
      cost: Number(cost),
      usageAmount: usage === null ? 0 : Number(usage),
      usageUnit: usage === null ? "" : (first.usageUnit ?? ""),
      source,
    });
  }
  return results;
}

const dayStarts = new Map<string, bigint>();

/** Seconds since the epoch of 00:00 UTC of `day`, remembered (the same days are asked again). */
function dayStartSeconds(day: string): bigint {
  let seconds = dayStarts.get(day);
  if (seconds === undefined) {
    seconds = BigInt(dayStartMs(day) / 1000);
    if (dayStarts.size >= 20_000) dayStarts.clear();
    dayStarts.set(day, seconds);
  }
  return seconds;
}

function matchDimensions(
  dims: readonly StoredDimension[],
  provider: string,
  resourceType: string,
  region: string,
): StoredDimension[] {
  const p = provider.toLowerCase();
  const t = resourceType.toLowerCase();
  const r = region.toLowerCase();
  return dims.filter(
    (d) =>
      d.provider.toLowerCase() === p &&
      d.service.toLowerCase() === t &&
      (r === "" || d.region.toLowerCase() === r),
  );
}

function unsupportedReason(
  dims: readonly StoredDimension[],
  source: string,
  resource: { provider: string; resourceType: string; region: string },
): string {
  const p = resource.provider.toLowerCase();
  const ofProvider = dims.filter((d) => d.provider.toLowerCase() === p);
  if (ofProvider.length === 0) {
    return `no billing data for provider "${resource.provider}" in source "${source}"`;
  }
  const t = resource.resourceType.toLowerCase();
  const ofType = ofProvider.filter((d) => d.service.toLowerCase() === t);
  if (ofType.length === 0) {
    const known = [...new Set(ofProvider.map((d) => d.service))].slice(0, 20).join(", ");
    return `no billing data for resource type "${resource.resourceType}" of provider "${resource.provider}" (stored: ${known})`;
  }
  const regions = [...new Set(ofType.map((d) => d.region))].slice(0, 20).join(", ");
  return `no billing data for "${resource.resourceType}" in region "${resource.region}" (stored regions: ${regions})`;
}

function formatAge(ms: number): string {
  const hours = ms / 3_600_000;
  return hours >= 48 ? `${Math.floor(hours / 24)} days` : `${Math.max(0, Math.floor(hours))} hours`;
}
