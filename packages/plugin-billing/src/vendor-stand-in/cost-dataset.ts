import { addDays, daysBetween } from "../day.js";

/** One row in the vendor's wire format. */
export interface VendorCostRow {
  accrued_at: string;
  amount: string;
  currency: string;
  provider?: string;
  account_id?: string;
  service?: string;
  region?: string;
  resource_id?: string;
  tags?: string[];
  usage_amount?: string;
  usage_unit?: string;
}

/** A generated resource. */
export interface DatasetResource {
  readonly provider: string;
  readonly accountId: string;
  readonly service: string;
  readonly region: string;
  readonly resourceId: string;
  readonly tags: readonly string[];
  /** Typical daily cost in millionths of the currency. */
  readonly baseMicros: number;
  /** Usage unit, when the service reports usage. */
  readonly usageUnit?: string;
}

/** Options of `createCostDataset`. */
export interface CostDatasetOptions {
  /** Seed of the generator: the same seed gives the same data. Default 1. */
  readonly seed?: number;
  /** Number of resources. Default 40. */
  readonly resources?: number;
  /** First day with costs. Default `2026-01-01`. */
  readonly firstDay?: string;
  /** Last day with costs. Default `2026-12-31`. */
  readonly lastDay?: string;
  /** Currency of every row. Default `USD`. */
  readonly currency?: string;
}

/** Deterministic cost data: `resources` resources, each with one row per day. */
export interface CostDataset {
  readonly firstDay: string;
  readonly lastDay: string;
  readonly currency: string;
  readonly resources: readonly DatasetResource[];
  /** Rows per day (one per resource). */
  readonly rowsPerDay: number;
  /** Total days. */
  readonly days: number;
  /** The row of resource `resourceIndex` on day `dayIndex` (from `firstDay`), or undefined if removed. */
  row(dayIndex: number, resourceIndex: number): VendorCostRow | undefined;
  /** Changes the amount of a resource on a day (a restatement); `micros` is the new amount. */
  restate(day: string, resourceId: string, micros: number): void;
  /** Makes a row disappear, as when the vendor withdraws a charge. */
  remove(day: string, resourceId: string): void;
  /** The amount of a row in micros, or undefined when removed or out of range. */
  micros(day: string, resourceId: string): number | undefined;
  /** Exact total per day of `[fromDay, toDay]` (both included), as decimal text. */
  totals(fromDay: string, toDay: string): Map<string, string>;
}

const providers = [
  {
    name: "aws",
    accounts: ["123456789012", "210987654321"],
    regions: ["us-east-1", "eu-west-1", "ap-southeast-2"],
    services: [
      { name: "AmazonEC2", prefix: "i-", unit: "hour", base: 2_500_000 },
      { name: "AmazonRDS", prefix: "db-", unit: "hour", base: 9_000_000 },
      { name: "AmazonS3", prefix: "arn:aws:s3:::bucket-", unit: "GB-month", base: 700_000 },
      { name: "AWSLambda", prefix: "arn:aws:lambda:fn-", unit: undefined, base: 150_000 },
    ],
  },
  {
    name: "gcp",
    accounts: ["prj-analytics", "prj-web"],
    regions: ["us-central1", "europe-west4"],
    services: [
      { name: "ComputeEngine", prefix: "gce-", unit: "hour", base: 2_100_000 },
      { name: "CloudSQL", prefix: "sql-", unit: "hour", base: 6_400_000 },
    ],
  },
  {
    name: "azure",
    accounts: ["sub-0001"],
    regions: ["westeurope", "eastus"],
    services: [{ name: "VirtualMachines", prefix: "vm-", unit: "hour", base: 3_100_000 }],
  },
] as const;

const teams = ["payments", "search", "platform", "data", "web"];
const envs = ["prod", "staging", "dev"];

/** A small, fast, seedable generator (mulberry32). */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function hash(a: number, b: number, c: number): number {
  let h =
    Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^
    Math.imul(b + 0x27d4eb2f, 0xc2b2ae35) ^
    Math.imul(c + 0x165667b1, 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return (h >>> 0) / 4294967296;
}

/** Formats millionths as a decimal string, sometimes with trailing zeros, as vendors do. */
export function microsToDecimal(micros: number): string {
  const negative = micros < 0;
  const abs = Math.abs(micros);
  const whole = Math.floor(abs / 1_000_000);
  const fraction = String(abs % 1_000_000).padStart(6, "0");
  return `${negative ? "-" : ""}${whole}.${fraction}`;
}

/** Creates the deterministic dataset. */
export function createCostDataset(options: CostDatasetOptions = {}): CostDataset {
  const seed = options.seed ?? 1;
  const firstDay = options.firstDay ?? "2026-01-01";
  const lastDay = options.lastDay ?? "2026-12-31";
  const currency = options.currency ?? "USD";
  const count = options.resources ?? 40;
  const random = generator(seed);
  const resources: DatasetResource[] = [];
  for (let i = 0; i < count; i += 1) {
    const provider = providers[Math.floor(random() * providers.length)] ?? providers[0];
    const service =
      provider.services[Math.floor(random() * provider.services.length)] ?? provider.services[0];
    const region = provider.regions[Math.floor(random() * provider.regions.length)] ?? "";
    const account = provider.accounts[Math.floor(random() * provider.accounts.length)] ?? "";
    const tags = [
      `env:${envs[Math.floor(random() * envs.length)]}`,
      `team:${teams[Math.floor(random() * teams.length)]}`,
    ];
    if (provider.name === "aws" && random() < 0.5) {
      tags.push(`aws:cloudformation:stack-name:stack-${Math.floor(random() * 8)}`);
    }
    resources.push({
      provider: provider.name,
      accountId: account,
      service: service.name,
      region,
      resourceId: `${service.prefix}${(i + 1).toString(16).padStart(4, "0")}${Math.floor(
        random() * 0xffffff,
      )
        .toString(16)
        .padStart(6, "0")}`,
      tags,
      baseMicros: Math.round(service.base * (0.3 + random() * 1.7)),
      ...(service.unit === undefined ? {} : { usageUnit: service.unit }),
    });
  }
  const indexOf = new Map(resources.map((r, i) => [r.resourceId, i]));
  const overrides = new Map<string, number>();
  const removed = new Set<string>();
  const days = daysBetween(firstDay, lastDay);
  const dayCache: string[] = [];
  const dayAt = (index: number) => {
    let day = dayCache[index];
    if (day === undefined) {
      day = addDays(firstDay, index);
      dayCache[index] = day;
    }
    return day;
  };
  const dayIndexOf = (day: string) => daysBetween(firstDay, day) - 1;

  const baseMicros = (dayIndex: number, resourceIndex: number): number => {
    const resource = resources[resourceIndex];
    if (!resource) return 0;
    const factor = 0.8 + 0.4 * hash(seed, dayIndex, resourceIndex);
    return Math.round(resource.baseMicros * factor);
  };
  const microsAt = (dayIndex: number, resourceIndex: number): number | undefined => {
    const key = `${dayIndex}:${resourceIndex}`;
    if (removed.has(key)) return undefined;
    return overrides.get(key) ?? baseMicros(dayIndex, resourceIndex);
  };

  return {
    firstDay,
    lastDay,
    currency,
    resources,
    rowsPerDay: count,
    days,
    row(dayIndex, resourceIndex) {
      const resource = resources[resourceIndex];
      const micros = microsAt(dayIndex, resourceIndex);
      if (!resource || micros === undefined || dayIndex < 0 || dayIndex >= days) return undefined;
      const row: VendorCostRow = {
        accrued_at: dayIndex % 5 === 0 ? `${dayAt(dayIndex)}+00:00` : dayAt(dayIndex),
        amount: microsToDecimal(micros),
        currency,
        provider: resource.provider,
        account_id: resource.accountId,
        service: resource.service,
        region: resource.region,
        resource_id: resource.resourceId,
        tags: [...resource.tags],
      };
      if (resource.usageUnit !== undefined) {
        row.usage_amount = resource.usageUnit === "hour" ? "24" : microsToDecimal(micros * 3);
        row.usage_unit = resource.usageUnit;
      }
      return row;
    },
    restate(day, resourceId, micros) {
      const r = indexOf.get(resourceId);
      if (r === undefined) throw new Error(`unknown resource ${resourceId}`);
      overrides.set(`${dayIndexOf(day)}:${r}`, micros);
    },
    remove(day, resourceId) {
      const r = indexOf.get(resourceId);
      if (r === undefined) throw new Error(`unknown resource ${resourceId}`);
      removed.add(`${dayIndexOf(day)}:${r}`);
    },
    micros(day, resourceId) {
      const r = indexOf.get(resourceId);
      const d = dayIndexOf(day);
      if (r === undefined || d < 0 || d >= days) return undefined;
      return microsAt(d, r);
    },
    totals(fromDay, toDay) {
      const result = new Map<string, string>();
      const from = Math.max(0, dayIndexOf(fromDay));
      const to = Math.min(days - 1, dayIndexOf(toDay));
      for (let d = from; d <= to; d += 1) {
        let total = 0;
        for (let r = 0; r < count; r += 1) total += microsAt(d, r) ?? 0;
        result.set(dayAt(d), microsToDecimal(total));
      }
      return result;
    },
  };
}
