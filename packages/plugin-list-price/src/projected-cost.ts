import { Decimal } from "decimal.js";
import type { ResolvedResource } from "./resolve-resource.js";
import type { QuantityTag } from "./tags.js";
import { readQuantityTag } from "./tags.js";

/** What GetProjectedCost assumes when the resource's tags say nothing. */
export interface UsageAssumptions {
  /** Hours billed in a month for hourly prices. */
  readonly hoursPerMonth: number;
  /** Size of an EBS volume without a size tag, in GB. */
  readonly defaultVolumeSizeGb: number;
  /** Data stored in an S3 bucket without a size tag, in GB. */
  readonly defaultBucketSizeGb: number;
  /** Requests per month of a Lambda function without a requests tag. */
  readonly defaultLambdaRequestsPerMonth: number;
  /** Memory of a Lambda function without a memory tag, in MB. */
  readonly defaultLambdaMemoryMb: number;
  /** Average duration of a Lambda invocation without a duration tag, in milliseconds. */
  readonly defaultLambdaDurationMs: number;
}

/** Size tags of storage resources, in precedence order. */
export const sizeTag: QuantityTag = {
  names: ["size_gb", "size", "storage_gb", "volume_size"],
  min: 0,
  max: 1e9,
  unit: "GB",
};
/** Monthly request count tags of Lambda functions, in precedence order. */
export const requestsTag: QuantityTag = {
  names: ["requests_per_month", "monthly_requests"],
  min: 0,
  max: 1e15,
  unit: "requests per month",
};
/** Monthly GB-second tags of Lambda functions, in precedence order; win over memory × duration. */
export const gbSecondsTag: QuantityTag = {
  names: ["gb_seconds_per_month", "monthly_gb_seconds"],
  min: 0,
  max: 1e15,
  unit: "GB-seconds per month",
};
/** Memory tags of Lambda functions (Terraform's `memory_size`), in precedence order. */
export const memoryTag: QuantityTag = {
  names: ["memory_mb", "memory_size"],
  min: 128,
  max: 10240,
  unit: "MB",
};
/** Average duration tags of Lambda functions, in precedence order. */
export const durationTag: QuantityTag = {
  names: ["duration_ms", "avg_duration_ms"],
  min: 0,
  max: 900000,
  unit: "ms",
};

/** The projected monthly cost of one resource at its list price. */
export interface ProjectedCost {
  /** The list price per billing unit (per hour, per GB-month or per GB-second). */
  readonly unitPrice: number;
  /** Estimated cost of one month, in the price's currency. */
  readonly costPerMonth: number;
  /** How the figure was reached: pricing model, what is included, the quantities used. */
  readonly billingDetail: string;
}

/**
 * The monthly cost of a resolved resource: hourly price × hours per month, GB-month price ×
 * size, or Lambda requests × request price + GB-seconds × duration price. Products are taken in
 * decimal arithmetic so `0.0104 × 730` is exactly `7.592`. Throws INVALID_RESOURCE (naming the
 * tag) for a malformed quantity tag.
 */
export function projectCost(
  resolved: ResolvedResource,
  tags: Readonly<Record<string, string>>,
  assumptions: UsageAssumptions,
): ProjectedCost {
  const { entry, service } = resolved;
  const skuNote = resolved.skuOrigin === "default" ? ` (default ${service.skuKind})` : "";
  switch (entry.billingMode) {
    case "per_hour": {
      const hours = assumptions.hoursPerMonth;
      return {
        unitPrice: entry.rate,
        costPerMonth: new Decimal(entry.rate).times(hours).toNumber(),
        billingDetail: `${service.terms}, ${hours} h/month`,
      };
    }
    case "per_gb_month": {
      const fallback =
        service.resourceType === "s3"
          ? assumptions.defaultBucketSizeGb
          : assumptions.defaultVolumeSizeGb;
      const size = readQuantityTag(tags, sizeTag);
      const sizeNote = size
        ? `${size.value} GB from tag ${size.tag}`
        : `${fallback} GB assumed (no ${sizeTag.names[0]} tag)`;
      return {
        unitPrice: entry.rate,
        costPerMonth: new Decimal(entry.rate).times(size?.value ?? fallback).toNumber(),
        billingDetail: `${service.terms}; ${entry.sku}${skuNote}, ${sizeNote}`,
      };
    }
    case "per_gb_second": {
      const requests = readQuantityTag(tags, requestsTag);
      const gbSeconds = readQuantityTag(tags, gbSecondsTag);
      const memory = readQuantityTag(tags, memoryTag);
      const duration = readQuantityTag(tags, durationTag);
      const requestCount = new Decimal(
        requests?.value ?? assumptions.defaultLambdaRequestsPerMonth,
      );
      const computed = requestCount
        .times(memory?.value ?? assumptions.defaultLambdaMemoryMb)
        .dividedBy(1024)
        .times(duration?.value ?? assumptions.defaultLambdaDurationMs)
        .dividedBy(1000);
      const seconds = gbSeconds ? new Decimal(gbSeconds.value) : computed;
      const requestRate = new Decimal(entry.ratePerMillionRequests ?? 0).dividedBy(1_000_000);
      const cost = requestCount.times(requestRate).plus(seconds.times(entry.rate));
      const requestNote = requests
        ? `from tag ${requests.tag}`
        : `assumed (no ${requestsTag.names[0]} tag)`;
      const secondsNote = gbSeconds
        ? `from tag ${gbSeconds.tag}`
        : `from ${memory?.value ?? assumptions.defaultLambdaMemoryMb} MB × ${duration?.value ?? assumptions.defaultLambdaDurationMs} ms per request`;
      return {
        unitPrice: entry.rate,
        costPerMonth: cost.toNumber(),
        billingDetail: `${service.terms}; ${entry.sku}${skuNote}, ${requestCount.toString()} requests/month ${requestNote}, ${seconds.toString()} GB-seconds/month ${secondsNote}`,
      };
    }
  }
}
