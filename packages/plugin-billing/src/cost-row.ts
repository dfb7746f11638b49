import { canonicalAmount } from "./decimal-amount.js";

/** One day of cost for one set of dimensions, as stored. Absent dimensions are `""`. */
export interface CostRow {
  /** The accrual day, `YYYY-MM-DD` (UTC). */
  readonly day: string;
  /** Cloud provider, e.g. `aws`. */
  readonly provider: string;
  /** Account, project or subscription. */
  readonly accountId: string;
  /** Vendor service name, e.g. `AmazonEC2`; matched against `resource_type`. */
  readonly service: string;
  /** Region. */
  readonly region: string;
  /** Resource identifier, the key of GetActualCost. */
  readonly resourceId: string;
  /** Values of the `tag:<key>` groupings, part of the natural key; `""` without such groupings. */
  readonly tagGroup: string;
  /** Exact decimal amount, canonical text. */
  readonly amount: string;
  /** ISO 4217 currency code. */
  readonly currency: string;
  /** Usage quantity as canonical decimal text, when the vendor gave one. */
  readonly usageAmount: string | null;
  /** Unit of the usage quantity, when the vendor gave one. */
  readonly usageUnit: string | null;
  /** Tags as `key:value` strings, sorted. */
  readonly tags: readonly string[];
}

const maxFieldLength = 512;
const maxTags = 200;
const dayPattern = /^(\d{4})-(\d{2})-(\d{2})(?:T00:00(?::00(?:\.0+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

const dayCache = new Map<string, string | undefined>();

/** The calendar day of an `accrued_at` value (`2026-06-05`, `2026-06-05+00:00`, ...), or undefined. */
export function dayFromAccruedAt(value: string): string | undefined {
  // A page holds few distinct days: remember the answers (bounded, so hostile input cannot grow it).
  if (dayCache.has(value)) return dayCache.get(value);
  const day = parseDay(value);
  if (dayCache.size > 10_000) dayCache.clear();
  dayCache.set(value, day);
  return day;
}

function parseDay(value: string): string | undefined {
  const match = dayPattern.exec(value);
  if (!match) return undefined;
  const day = `${match[1]}-${match[2]}-${match[3]}`;
  const parsed = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === day
    ? day
    : undefined;
}

/** Splits a `key:value` tag on its last colon (keys may contain colons); no colon: empty value. */
export function splitTag(tag: string): { key: string; value: string } {
  const at = tag.lastIndexOf(":");
  return at < 0 ? { key: tag, value: "" } : { key: tag.slice(0, at), value: tag.slice(at + 1) };
}

/**
 * Validates one element of the vendor's `costs` array. Returns the row or a sentence saying what
 * is wrong with it (never quoting the values).
 */
export function costRowFromVendor(raw: unknown, tagGroupings: readonly string[]): CostRow | string {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return "it is not an object";
  const r = raw as Record<string, unknown>;
  if (typeof r.accrued_at !== "string") return "accrued_at is missing";
  const day = dayFromAccruedAt(r.accrued_at);
  if (day === undefined) return "accrued_at is not a date";
  if (typeof r.amount !== "string" && typeof r.amount !== "number") return "amount is missing";
  const amount = canonicalAmount(r.amount);
  if (amount === undefined) return "amount is not a decimal number";
  if (typeof r.currency !== "string" || !/^[A-Z]{3}$/.test(r.currency)) {
    return "currency is not a three-letter code";
  }
  const dims: Record<string, string> = {};
  for (const field of ["provider", "account_id", "service", "region", "resource_id"]) {
    const value = r[field];
    if (value === undefined || value === null) dims[field] = "";
    else if (typeof value !== "string" || value.length > maxFieldLength) {
      return `${field} is not a string of at most ${maxFieldLength} characters`;
    } else dims[field] = value;
  }
  let tags: string[] = [];
  if (r.tags !== undefined && r.tags !== null) {
    if (
      !Array.isArray(r.tags) ||
      r.tags.length > maxTags ||
      !r.tags.every((t) => typeof t === "string" && t.length <= maxFieldLength)
    ) {
      return `tags is not a list of at most ${maxTags} strings`;
    }
    tags = r.tags.length < 2 ? [...(r.tags as string[])] : [...new Set(r.tags as string[])].sort();
  }
  let usageAmount: string | null = null;
  let usageUnit: string | null = null;
  if (r.usage_amount !== undefined && r.usage_amount !== null) {
    if (typeof r.usage_amount !== "string" && typeof r.usage_amount !== "number") {
      return "usage_amount is not a decimal number";
    }
    const usage = canonicalAmount(r.usage_amount);
    if (usage === undefined) return "usage_amount is not a decimal number";
    usageAmount = usage;
    if (typeof r.usage_unit === "string" && r.usage_unit.length <= 64) usageUnit = r.usage_unit;
  }
  let tagGroup = "";
  if (tagGroupings.length > 0) {
    const byKey = new Map(tags.map((t) => [splitTag(t).key, splitTag(t).value]));
    tagGroup = JSON.stringify(tagGroupings.map((g) => byKey.get(g.slice(4)) ?? ""));
  }
  return {
    day,
    provider: dims.provider ?? "",
    accountId: dims.account_id ?? "",
    service: dims.service ?? "",
    region: dims.region ?? "",
    resourceId: dims.resource_id ?? "",
    tagGroup,
    amount,
    currency: r.currency,
    usageAmount,
    usageUnit,
    tags,
  };
}
