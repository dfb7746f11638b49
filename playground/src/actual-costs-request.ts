import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import type { GetActualCostRequest } from "@costplugin/proto";
import { GetActualCostRequestSchema } from "@costplugin/proto";
import type { ActualCostInput } from "./playground-state.js";
import { tagsFromRows } from "./playground-state.js";

const dayMs = 86_400_000;

/**
 * The GetActualCost request for the form. Days are UTC and both are included: `start` is the
 * first day at 00:00:00.000 and `end` the last day at 23:59:59.999, which gives the same days
 * whether the plugin treats `end` as inclusive or exclusive.
 */
export function actualCostRequestFromInput(input: ActualCostInput): GetActualCostRequest {
  const start = Date.parse(`${input.startDate}T00:00:00Z`);
  const end = Date.parse(`${input.endDate}T00:00:00Z`) + dayMs - 1;
  return create(GetActualCostRequestSchema, {
    resourceId: input.resourceId.trim(),
    start: timestampFromMs(start),
    end: timestampFromMs(end),
    tags: tagsFromRows(input.tags),
  });
}

/** The resource id of the probe request; no real resource is expected to have it. */
export const probeResourceId = "costplugin-playground-probe";

/** The probe sent when a plugin is opened: a valid request for the last day. */
export function actualCostProbeRequest(now: Date): GetActualCostRequest {
  return create(GetActualCostRequestSchema, {
    resourceId: probeResourceId,
    start: timestampFromMs(now.getTime() - dayMs),
    end: timestampFromMs(now.getTime()),
  });
}

/**
 * Whether a plugin serves actual costs, judged from its answer to the probe: an answer, or a
 * complaint about the probe's resource (not found, invalid argument), means the method works;
 * unimplemented, failed precondition (not configured / holds no billing data) or any other
 * failure means it does not, and the plugin's own message says why.
 */
export function servesActualCosts(outcome: { ok: true } | { ok: false; error: unknown }): boolean {
  if (outcome.ok) return true;
  const code = ConnectError.from(outcome.error).code;
  return code === Code.NotFound || code === Code.InvalidArgument;
}
