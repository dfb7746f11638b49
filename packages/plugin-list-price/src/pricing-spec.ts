import type { MessageInitShape } from "@bufbuild/protobuf";
import type { PricingSpecSchema } from "@costplugin/proto";
import { Decimal } from "decimal.js";
import type { Catalogue } from "./catalogue.js";
import type { ResolvedResource } from "./resolve-resource.js";

/** Usage metrics behind each billing mode: what a caller should meter to apply the rate. */
const metricHints: Readonly<Record<string, readonly { metric: string; unit: string }[]>> = {
  per_hour: [{ metric: "instance_hours", unit: "hour" }],
  per_gb_month: [{ metric: "storage_gb", unit: "GB-month" }],
  per_gb_second: [
    { metric: "compute_gb_seconds", unit: "GB-second" },
    { metric: "requests", unit: "request" },
  ],
};

/**
 * The PricingSpec of a resolved resource: canonical provider, resource type, SKU and region,
 * the billing mode and rate, metric hints, the public source, and in `plugin_metadata` the
 * as-of date, catalogue version and the alias that matched.
 */
export function pricingSpecFromResolved(
  resolved: ResolvedResource,
  catalogue: Catalogue,
  hoursPerMonth: number,
): MessageInitShape<typeof PricingSpecSchema> {
  const { entry, service, match } = resolved;
  const metadata: Record<string, string> = {
    as_of: entry.asOf,
    catalogue_version: catalogue.version,
    matched_alias: match.alias.alias,
    alias_form: match.alias.form,
    pricing_model: "on_demand",
    sku_origin: resolved.skuOrigin,
    unit: entry.unit,
  };
  if (entry.billingMode === "per_hour") metadata.hours_per_month = String(hoursPerMonth);
  if (match.definition.hasOperatingSystem) metadata.operating_system = "linux";
  if (entry.ratePerMillionRequests !== undefined) {
    const perMillion = new Decimal(entry.ratePerMillionRequests);
    metadata.rate_per_million_requests = perMillion.toString();
    metadata.rate_per_request = perMillion.dividedBy(1_000_000).toFixed();
  }
  const requestNote =
    entry.ratePerMillionRequests === undefined
      ? ""
      : ` plus ${entry.ratePerMillionRequests} ${entry.currency} per million requests`;
  return {
    provider: entry.provider,
    resourceType: entry.resourceType,
    sku: entry.sku,
    region: entry.region,
    billingMode: entry.billingMode,
    ratePerUnit: entry.rate,
    currency: entry.currency,
    description: `${service.title} ${entry.sku} in ${entry.region}: ${new Decimal(entry.rate).toFixed()} ${entry.currency} per ${entry.unit}${requestNote}; ${service.terms}`,
    metricHints: [...(metricHints[entry.billingMode] ?? [])],
    pluginMetadata: metadata,
    source: entry.source,
  };
}
