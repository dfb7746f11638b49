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

const dimensionFields = ["provider", "account_id", "service", "region", "resource_id"] as const;
const noTags: readonly string[] = Object.freeze([]);
const currencyPattern = /^[A-Z]{3}$/;

/**
 * Validates one element of the vendor's `costs` array. Returns the row or a sentence saying what
 * is wrong with it (never quoting the values). Every pulled row goes through here, so it reads
 * each field once and copies nothing it can keep (a sorted, duplicate-free tag list is kept as is).
 */
export function costRowFromVendor(raw: unknown, tagGroupings: readonly string[]): CostRow | string {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return "it is not an object";
  const r = raw as Record<string, unknown>;
  const accruedAt = r.accrued_at;
  if (typeof accruedAt !== "string") return "accrued_at is missing";
  const day = dayFromAccruedAt(accruedAt);
  if (day === undefined) return "accrued_at is not a date";
  const rawAmount = r.amount;
  if (typeof rawAmount !== "string" && typeof rawAmount !== "number") return "amount is missing";
  const amount = canonicalAmount(rawAmount);
  if (amount === undefined) return "amount is not a decimal number";
  const currency = r.currency;
  if (typeof currency !== "string" || !currencyPattern.test(currency)) {
    return "currency is not a three-letter code";
  }
  const provider = dimension(r.provider);
  const accountId = dimension(r.account_id);
  const service = dimension(r.service);
  const region = dimension(r.region);
  const resourceId = dimension(r.resource_id);
  if (
    provider === undefined ||
    accountId === undefined ||
    service === undefined ||
    region === undefined ||
    resourceId === undefined
  ) {
    const field = dimensionFields.find((f) => dimension(r[f]) === undefined);
    return `${field} is not a string of at most ${maxFieldLength} characters`;
  }
  const tags = tagList(r.tags);
  if (tags === undefined) return `tags is not a list of at most ${maxTags} strings`;
  let usageAmount: string | null = null;
  let usageUnit: string | null = null;
  const rawUsage = r.usage_amount;
  if (rawUsage !== undefined && rawUsage !== null) {
    if (typeof rawUsage !== "string" && typeof rawUsage !== "number") {
      return "usage_amount is not a decimal number";
    }
    const usage = canonicalAmount(rawUsage);
    if (usage === undefined) return "usage_amount is not a decimal number";
    usageAmount = usage;
    const unit = r.usage_unit;
    if (typeof unit === "string" && unit.length <= 64) usageUnit = unit;
  }
  let tagGroup = "";
  if (tagGroupings.length > 0) {
    const byKey = new Map(tags.map((t) => [splitTag(t).key, splitTag(t).value]));
    tagGroup = JSON.stringify(tagGroupings.map((g) => byKey.get(g.slice(4)) ?? ""));
  }
  return {
    day,
    provider,
    accountId,
    service,
    region,
    resourceId,
    tagGroup,
    amount,
    currency,
    usageAmount,
    usageUnit,
    tags,
  };
}

/** A dimension as stored: `""` when absent, undefined when not an acceptable string. */
function dimension(value: unknown): string | undefined {
  if (value === undefined || value === null) return "";
  return typeof value === "string" && value.length <= maxFieldLength ? value : undefined;
}

/** The tags sorted and without duplicates, or undefined when `value` is not a list of tags. */
function tagList(value: unknown): readonly string[] | undefined {
  if (value === undefined || value === null) return noTags;
  if (!Array.isArray(value) || value.length > maxTags) return undefined;
  let ordered = true;
  for (let i = 0; i < value.length; i += 1) {
    const tag: unknown = value[i];
    if (typeof tag !== "string" || tag.length > maxFieldLength) return undefined;
    if (i > 0 && !((value[i - 1] as string) < tag)) ordered = false;
  }
  // Vendors usually send tags sorted: then the list is kept as is.
  return ordered ? (value as string[]) : [...new Set(value as string[])].sort();
}
