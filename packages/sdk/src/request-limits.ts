/**
 * Size limits applied to every request before the plugin sees it. A request over a limit is
 * answered invalid_argument with ERROR_CODE_INVALID_RESOURCE, and the message names the field,
 * its size and the limit (never the value itself).
 */
export interface RequestLimits {
  /**
   * Longest `provider`, `resource_type`, `sku` and `region`, in characters. Default 256: enough
   * for Pulumi type tokens such as `azure-native:compute/v20230301:VirtualMachineScaleSet`.
   */
  readonly maxFieldLength: number;
  /** Longest `resource_id` of GetActualCost. Default 2048: the longest ARN AWS allows. */
  readonly maxResourceIdLength: number;
  /** Most entries of a `tags` map. Default 128: more than AWS, Azure (50) or GCP (64) allow. */
  readonly maxTags: number;
  /** Longest tag key. Default 512: Azure's limit, the largest of the three clouds. */
  readonly maxTagKeyLength: number;
  /** Longest tag value. Default 1024 (the clouds allow 63-256; annotations run longer). */
  readonly maxTagValueLength: number;
}

/** The limits used when `PluginRoutesOptions.limits` leaves a field out. */
export const defaultRequestLimits: RequestLimits = {
  maxFieldLength: 256,
  maxResourceIdLength: 2048,
  maxTags: 128,
  maxTagKeyLength: 512,
  maxTagValueLength: 1024,
};

/** Default of `PluginRoutesOptions.maxActualCostSpanDays`: one leap year of daily buckets. */
export const defaultMaxActualCostSpanDays = 366;

/** Fills the defaults in and rejects a limit that is not a positive integer (at startup). */
export function resolveRequestLimits(limits: Partial<RequestLimits> = {}): RequestLimits {
  const resolved = { ...defaultRequestLimits, ...limits };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new RangeError(`limits.${name} must be a positive integer, got ${String(value)}`);
    }
  }
  return resolved;
}
