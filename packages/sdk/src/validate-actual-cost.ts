import type { GetActualCostRequest } from "@costplugin/proto";
import type { RequestLimits } from "./request-limits.js";
import type { MillisecondRange } from "./time-range.js";
import { validateTimeRange } from "./time-range.js";
import { validateIdentifier, validateTags } from "./validate-resource.js";

const dayMs = 86_400_000;

/**
 * Validates a GetActualCost request: a non-blank `resource_id` within the limits
 * (INVALID_RESOURCE), `start` and `end` present with end after start and a span of at most
 * `maxSpanDays` (INVALID_TIME_RANGE), and `tags` within the limits (INVALID_RESOURCE).
 */
export function validateActualCostRequest(
  request: GetActualCostRequest,
  limits: RequestLimits,
  maxSpanDays: number,
): MillisecondRange {
  validateIdentifier(request.resourceId, "resource_id", limits.maxResourceIdLength, true);
  const range = validateTimeRange(request.start, request.end, {
    startField: "start",
    endField: "end",
    maxSpanMs: maxSpanDays * dayMs,
  });
  validateTags(request.tags, "tags", limits);
  return range;
}
