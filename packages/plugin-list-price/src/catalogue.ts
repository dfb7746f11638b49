import Value from "typebox/value";
import type { BillingMode, CatalogueManifest, PriceSheet, ProviderId } from "./catalogue-schema.js";
import { CatalogueManifestSchema, PriceSheetSchema } from "./catalogue-schema.js";

/** One list price: a SKU of a resource type in a region, with where and when it was published. */
export interface CatalogueEntry {
  /** Canonical provider, e.g. `aws`. */
  readonly provider: ProviderId;
  /** Canonical resource type, e.g. `ec2`. */
  readonly resourceType: string;
  /** Region as the provider spells it, e.g. `us-east-1`. */
  readonly region: string;
  /** SKU as the provider spells it, e.g. `t3.micro`, `Standard_D2s_v5`. */
  readonly sku: string;
  /** Billing mode of `rate`. */
  readonly billingMode: BillingMode;
  /** Billing unit of `rate`, e.g. `hour`. */
  readonly unit: string;
  /** Price per `unit` in `currency`. */
  readonly rate: number;
  /** Price per million requests, for request-billed resources; undefined otherwise. */
  readonly ratePerMillionRequests: number | undefined;
  /** ISO 4217 currency code. */
  readonly currency: string;
  /** The provider's public pricing page. */
  readonly source: string;
  /** Date (YYYY-MM-DD) at which this is the published list price. */
  readonly asOf: string;
}

/** Every price of one provider's resource type, indexed for look-up. */
export interface CatalogueService {
  /** Canonical provider. */
  readonly provider: ProviderId;
  /** Canonical resource type. */
  readonly resourceType: string;
  /** Human name, e.g. "Amazon EC2 instance". */
  readonly title: string;
  /** What the SKU names, e.g. "instance type". */
  readonly skuKind: string;
  /** SKU assumed when a request names none; undefined when the SKU is required. */
  readonly defaultSku: string | undefined;
  /** What the prices cover and leave out. */
  readonly terms: string;
  /** Billing mode of every price of the service. */
  readonly billingMode: BillingMode;
  /** Billing unit of every price of the service. */
  readonly unit: string;
  /** The provider's public pricing page. */
  readonly source: string;
  /** Date of the figures. */
  readonly asOf: string;
  /** Regions with prices, sorted. */
  readonly regions: readonly string[];
  /** SKUs priced in `region`, in sheet order (families, then sizes); empty for an unknown region. */
  skus(region: string): readonly string[];
  /** The price of `sku` in `region` (both compared case-insensitively), if listed. */
  find(region: string, sku: string): CatalogueEntry | undefined;
}

/** The validated, read-only price catalogue. */
export interface Catalogue {
  /** Catalogue version from the manifest, e.g. `2025.01.0`. */
  readonly version: string;
  /** Date of the newest figures. */
  readonly asOf: string;
  /** Every service, in sheet order. */
  readonly services: readonly CatalogueService[];
  /** Every price, flattened. */
  readonly entries: readonly CatalogueEntry[];
  /** The service of a canonical provider and resource type, if any. */
  service(provider: ProviderId, resourceType: string): CatalogueService | undefined;
}

/** The raw, not yet validated, catalogue files. */
export interface CatalogueSource {
  /** Contents of `manifest.json`. */
  readonly manifest: unknown;
  /** Contents of every price sheet. */
  readonly sheets: readonly unknown[];
}

/** Thrown by `createCatalogue` when the catalogue files are malformed; lists every problem. */
export class CatalogueError extends Error {
  override readonly name = "CatalogueError";
  /** One sentence per problem, naming the sheet and the JSON path. */
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`price catalogue is invalid:\n- ${problems.join("\n- ")}`);
    this.problems = problems;
  }
}

/**
 * Validates the catalogue files once and indexes them. Throws `CatalogueError` naming every
 * problem: shape, non-positive prices, impossible dates, duplicate services or SKUs, a default
 * SKU missing from a region, request prices that do not match the duration prices.
 */
export function createCatalogue(source: CatalogueSource): Catalogue {
  const problems: string[] = [];
  const manifest = validateManifest(source.manifest, problems);
  const sheets = source.sheets.flatMap((raw, index) => {
    const sheet = validateSheet(raw, index, problems);
    return sheet ? [sheet] : [];
  });
  const services = new Map<string, CatalogueService>();
  for (const sheet of sheets) {
    const key = `${sheet.provider}/${sheet.resource_type}`;
    if (services.has(key)) problems.push(`${key}: more than one sheet prices this resource type`);
    else services.set(key, serviceFromSheet(sheet, manifest?.currency, problems));
  }
  if (sheets.length === 0 && problems.length === 0) problems.push("no price sheets");
  if (problems.length > 0 || !manifest) throw new CatalogueError(problems);
  const list = [...services.values()];
  const entries = list.flatMap((service) =>
    service.regions.flatMap((region) =>
      service.skus(region).flatMap((sku) => service.find(region, sku) ?? []),
    ),
  );
  return {
    version: manifest.version,
    asOf: manifest.as_of,
    services: list,
    entries,
    service: (provider, resourceType) => services.get(`${provider}/${resourceType}`),
  };
}

function validateManifest(raw: unknown, problems: string[]): CatalogueManifest | undefined {
  if (!Value.Check(CatalogueManifestSchema, raw)) {
    for (const error of Value.Errors(CatalogueManifestSchema, raw)) {
      problems.push(`manifest${error.instancePath}: ${error.message}`);
    }
    return undefined;
  }
  if (!isCalendarDate(raw.as_of)) problems.push(`manifest/as_of: ${raw.as_of} is not a date`);
  return raw;
}

function validateSheet(raw: unknown, index: number, problems: string[]): PriceSheet | undefined {
  if (!Value.Check(PriceSheetSchema, raw)) {
    const label = sheetLabel(raw, index);
    for (const error of Value.Errors(PriceSheetSchema, raw)) {
      problems.push(`${label}${error.instancePath}: ${error.message}`);
    }
    return undefined;
  }
  const label = `${raw.provider}/${raw.resource_type}`;
  const before = problems.length;
  if (!isCalendarDate(raw.as_of)) problems.push(`${label}/as_of: ${raw.as_of} is not a date`);
  if (!URL.canParse(raw.source)) problems.push(`${label}/source: ${raw.source} is not a URL`);
  checkTable(label, "prices", raw.prices, problems);
  if (raw.billing_mode === "per_gb_second") {
    if (!raw.per_million_requests) {
      problems.push(`${label}: per_gb_second prices need per_million_requests`);
    } else {
      checkTable(label, "per_million_requests", raw.per_million_requests, problems);
      checkSameKeys(label, raw.prices, raw.per_million_requests, problems);
    }
  } else if (raw.per_million_requests) {
    problems.push(`${label}: per_million_requests only belongs to per_gb_second sheets`);
  }
  if (raw.default_sku !== undefined) {
    for (const [region, skus] of Object.entries(raw.prices)) {
      if (!(raw.default_sku in skus)) {
        problems.push(`${label}/prices/${region}: default_sku ${raw.default_sku} has no price`);
      }
    }
  }
  return problems.length === before ? raw : undefined;
}

type PriceTable = PriceSheet["prices"];

function checkTable(label: string, field: string, table: PriceTable, problems: string[]): void {
  const regions = Object.entries(table);
  if (regions.length === 0) problems.push(`${label}/${field}: no regions`);
  for (const [region, skus] of regions) {
    const seen = new Set<string>();
    if (Object.keys(skus).length === 0) problems.push(`${label}/${field}/${region}: no prices`);
    for (const [sku, price] of Object.entries(skus)) {
      const folded = sku.toLowerCase();
      if (seen.has(folded)) problems.push(`${label}/${field}/${region}/${sku}: duplicate SKU`);
      seen.add(folded);
      if (!Number.isFinite(price) || price <= 0) {
        problems.push(`${label}/${field}/${region}/${sku}: price must be positive and finite`);
      }
    }
  }
}

function checkSameKeys(label: string, a: PriceTable, b: PriceTable, problems: string[]): void {
  const keys = (table: PriceTable) =>
    Object.entries(table)
      .flatMap(([region, skus]) => Object.keys(skus).map((sku) => `${region}/${sku}`))
      .sort()
      .join(",");
  if (keys(a) !== keys(b)) {
    problems.push(
      `${label}: per_million_requests must price exactly the regions and SKUs of prices`,
    );
  }
}

function serviceFromSheet(
  sheet: PriceSheet,
  currency: string | undefined,
  problems: string[],
): CatalogueService {
  const label = `${sheet.provider}/${sheet.resource_type}`;
  if (currency !== undefined && sheet.currency !== currency) {
    problems.push(`${label}/currency: ${sheet.currency} differs from the manifest's ${currency}`);
  }
  const byRegion = new Map<string, Map<string, CatalogueEntry>>();
  for (const [region, skus] of Object.entries(sheet.prices)) {
    const bySku = new Map<string, CatalogueEntry>();
    for (const [sku, rate] of Object.entries(skus)) {
      bySku.set(sku.toLowerCase(), {
        provider: sheet.provider,
        resourceType: sheet.resource_type,
        region,
        sku,
        billingMode: sheet.billing_mode,
        unit: sheet.unit,
        rate,
        ratePerMillionRequests: sheet.per_million_requests?.[region]?.[sku],
        currency: sheet.currency,
        source: sheet.source,
        asOf: sheet.as_of,
      });
    }
    byRegion.set(region, bySku);
  }
  const skuLists = new Map(
    [...byRegion].map(([region, bySku]) => [region, [...bySku.values()].map((entry) => entry.sku)]),
  );
  return {
    provider: sheet.provider,
    resourceType: sheet.resource_type,
    title: sheet.title,
    skuKind: sheet.sku_kind,
    defaultSku: sheet.default_sku,
    terms: sheet.terms,
    billingMode: sheet.billing_mode,
    unit: sheet.unit,
    source: sheet.source,
    asOf: sheet.as_of,
    regions: [...byRegion.keys()].sort(compareNames),
    skus: (region) => skuLists.get(region.toLowerCase()) ?? [],
    find: (region, sku) => byRegion.get(region.toLowerCase())?.get(sku.toLowerCase()),
  };
}

/** Orders names the way people read them: `m5.2xlarge` before `m5.12xlarge`, case-insensitive. */
function compareNames(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true, sensitivity: "base" });
}

function isCalendarDate(value: string): boolean {
  const time = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(time) && new Date(time).toISOString().startsWith(value);
}

function sheetLabel(raw: unknown, index: number): string {
  if (typeof raw === "object" && raw !== null) {
    const { provider, resource_type } = raw as Record<string, unknown>;
    if (typeof provider === "string" && typeof resource_type === "string") {
      return `${provider}/${resource_type}`;
    }
  }
  return `sheet ${index}`;
}
