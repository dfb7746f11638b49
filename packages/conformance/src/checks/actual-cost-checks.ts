import { timestampMs } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import type { GetActualCostResponse } from "@costplugin/proto";
import { ErrorCode } from "@costplugin/proto";
import type { CheckVerdict } from "../check-result.js";
import { fail, notApplicable, pass, skip } from "../check-result.js";
import type { ProtocolCheck, RunContext } from "../conformance-check.js";
import type { ProtocolSession } from "../protocol-session.js";
import { describeError, isNotOffered } from "../rpc-outcome.js";
import {
  callActualCost,
  callActualCostMissingResource,
  callActualCostReversedRange,
} from "../session-calls.js";
import { rejectionVerdict } from "./rejection-verdict.js";

/** The reason of checks skipped for want of an actual-cost fixture. */
export const noActualCostFixture =
  "no actual-cost fixture: pass --actual-cost <resource-id> (and a range) or a fixtures file";

/**
 * Runs `judge` on the answer for the actual-cost fixture; skipped without the fixture, not
 * applicable when GetActualCost is not offered, skipped when the call failed.
 */
async function judgeActualCost(
  session: ProtocolSession,
  context: RunContext,
  expectation: string,
  judge: (response: GetActualCostResponse, range: { start: number; end: number }) => string[],
): Promise<CheckVerdict> {
  const fixture = context.options.fixtures.actualCost;
  if (fixture === undefined) return skip(noActualCostFixture);
  const outcome = await callActualCost(session, fixture);
  if (!outcome.ok) {
    return isNotOffered(outcome.error)
      ? notApplicable("the plugin does not offer GetActualCost")
      : skip("GetActualCost failed for the fixture (see actual-cost.answers)");
  }
  const problems = judge(outcome.value, {
    start: fixture.start.getTime(),
    end: fixture.end.getTime(),
  });
  if (problems.length === 0) {
    return pass(outcome.value.results.length === 0 ? "no results to judge" : undefined);
  }
  const shown = problems.slice(0, 5).join("; ");
  return fail(
    expectation,
    problems.length > 5 ? `${shown}; and ${problems.length - 5} more` : shown,
  );
}

/** Whether GetActualCost answered the fixture in this session. */
async function actualCostAnswered(session: ProtocolSession, context: RunContext): Promise<boolean> {
  const fixture = context.options.fixtures.actualCost;
  return fixture !== undefined && (await callActualCost(session, fixture)).ok;
}

/** `actual-cost.answers`. */
export const actualCostAnswersCheck: ProtocolCheck = {
  id: "actual-cost.answers",
  level: "basic",
  scope: "protocol",
  description: "GetActualCost answers for the actual-cost fixture.",
  async run(session, context) {
    const fixture = context.options.fixtures.actualCost;
    if (fixture === undefined) return skip(noActualCostFixture);
    const outcome = await callActualCost(session, fixture);
    if (outcome.ok) return pass(`${outcome.value.results.length} results`);
    if (isNotOffered(outcome.error))
      return notApplicable("the plugin does not offer GetActualCost");
    return fail(`an answer for resource ${fixture.resourceId}`, describeError(outcome.error));
  },
};

/** `actual-cost.ordered`. */
export const actualCostOrderedCheck: ProtocolCheck = {
  id: "actual-cost.ordered",
  level: "basic",
  scope: "protocol",
  description: "GetActualCost results are ordered by timestamp, oldest first.",
  run: (session, context) =>
    judgeActualCost(session, context, "results in ascending timestamp order", (response) => {
      const problems: string[] = [];
      let previous: number | undefined;
      response.results.forEach((result, index) => {
        if (result.timestamp === undefined) return;
        const at = timestampMs(result.timestamp);
        if (previous !== undefined && at < previous) {
          problems.push(
            `result ${index} (${new Date(at).toISOString()}) comes after ${new Date(previous).toISOString()}`,
          );
        }
        previous = at;
      });
      return problems;
    }),
};

/** `actual-cost.within-range`. */
export const actualCostRangeCheck: ProtocolCheck = {
  id: "actual-cost.within-range",
  level: "basic",
  scope: "protocol",
  description:
    "Every GetActualCost result has a timestamp inside the requested range (start inclusive, end exclusive).",
  run: (session, context) =>
    judgeActualCost(session, context, "timestamps in [start, end)", (response, range) =>
      response.results.flatMap((result, index) => {
        if (result.timestamp === undefined) return [`result ${index} has no timestamp`];
        const at = timestampMs(result.timestamp);
        return at >= range.start && at < range.end
          ? []
          : [`result ${index} at ${new Date(at).toISOString()}`];
      }),
    ),
};

/** `actual-cost.finite`. */
export const actualCostFiniteCheck: ProtocolCheck = {
  id: "actual-cost.finite",
  level: "basic",
  scope: "protocol",
  description:
    "Every GetActualCost cost is finite (credits may be negative) and every usage_amount finite and non-negative.",
  run: (session, context) =>
    judgeActualCost(
      session,
      context,
      "finite costs and finite, non-negative usage amounts",
      (response) =>
        response.results.flatMap((result, index) => {
          const problems: string[] = [];
          if (!Number.isFinite(result.cost))
            problems.push(`result ${index} cost is ${result.cost}`);
          if (!Number.isFinite(result.usageAmount) || result.usageAmount < 0) {
            problems.push(`result ${index} usage_amount is ${result.usageAmount}`);
          }
          return problems;
        }),
    ),
};

/** `actual-cost.rejects-reversed-range`. */
export const actualCostReversedRangeCheck: ProtocolCheck = {
  id: "actual-cost.rejects-reversed-range",
  level: "basic",
  scope: "protocol",
  description:
    "GetActualCost whose end is before its start fails with invalid_argument (ErrorDetail INVALID_TIME_RANGE).",
  async run(session, context) {
    const outcome = await callActualCostReversedRange(session, context.options.fixtures.actualCost);
    return rejectionVerdict(outcome, {
      code: Code.InvalidArgument,
      detail: ErrorCode.INVALID_TIME_RANGE,
      method: "GetActualCost",
      methodAnswered: await actualCostAnswered(session, context),
    });
  },
};

/** `actual-cost.rejects-missing-resource`. */
export const actualCostMissingResourceCheck: ProtocolCheck = {
  id: "actual-cost.rejects-missing-resource",
  level: "basic",
  scope: "protocol",
  description:
    "GetActualCost without a resource_id fails with invalid_argument (ErrorDetail INVALID_RESOURCE).",
  async run(session, context) {
    const outcome = await callActualCostMissingResource(
      session,
      context.options.fixtures.actualCost,
    );
    return rejectionVerdict(outcome, {
      code: Code.InvalidArgument,
      detail: ErrorCode.INVALID_RESOURCE,
      method: "GetActualCost",
      methodAnswered: await actualCostAnswered(session, context),
    });
  },
};
