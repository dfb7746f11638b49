import { Code } from "@connectrpc/connect";
import type { GetProjectedCostResponse } from "@costplugin/proto";
import { ErrorCode } from "@costplugin/proto";
import type { ProtocolCheck } from "../conformance-check.js";
import { isIso4217Code } from "../iso-4217.js";
import type { ProtocolSession } from "../protocol-session.js";
import {
  answersForFixtures,
  callPricingSpec,
  callProjectedCost,
  callProjectedCostEmptyResource,
} from "../session-calls.js";
import type { FixtureMethod } from "./fixture-verdicts.js";
import { answersVerdict, finiteNonNegativeProblems, judgeAnswers } from "./fixture-verdicts.js";
import { rejectionVerdict } from "./rejection-verdict.js";

/** Hours in a month the monthly-consistency check accepts: 28 to 31 days. */
export const hoursPerMonthRange = { min: 28 * 24, max: 31 * 24 } as const;

function projectedCost(session: ProtocolSession): FixtureMethod<GetProjectedCostResponse> {
  return {
    name: "GetProjectedCost",
    answersCheckId: "projected-cost.answers",
    call: (fixture) => callProjectedCost(session, fixture),
  };
}

/** `projected-cost.answers`. */
export const projectedCostAnswersCheck: ProtocolCheck = {
  id: "projected-cost.answers",
  level: "basic",
  scope: "protocol",
  description: "GetProjectedCost answers for every resource fixture.",
  run: (session, context) => answersVerdict(context, projectedCost(session)),
};

/** `projected-cost.currency-iso4217`. */
export const projectedCostCurrencyCheck: ProtocolCheck = {
  id: "projected-cost.currency-iso4217",
  level: "basic",
  scope: "protocol",
  description: "GetProjectedCost answers an ISO 4217 currency code (e.g. USD).",
  run: (session, context) =>
    judgeAnswers(context, projectedCost(session), "an ISO 4217 currency code", ({ value }) =>
      isIso4217Code(value.currency) ? [] : [`currency ${JSON.stringify(value.currency)}`],
    ),
};

/** `projected-cost.finite-non-negative`. */
export const projectedCostFiniteCheck: ProtocolCheck = {
  id: "projected-cost.finite-non-negative",
  level: "basic",
  scope: "protocol",
  description: "GetProjectedCost's unit_price and cost_per_month are finite and non-negative.",
  run: (session, context) =>
    judgeAnswers(
      context,
      projectedCost(session),
      "finite, non-negative unit_price and cost_per_month",
      ({ value }) => [
        ...finiteNonNegativeProblems("unit_price", value.unitPrice),
        ...finiteNonNegativeProblems("cost_per_month", value.costPerMonth),
      ],
    ),
};

/** `projected-cost.monthly-consistent`. */
export const projectedCostMonthlyCheck: ProtocolCheck = {
  id: "projected-cost.monthly-consistent",
  level: "standard",
  scope: "protocol",
  description:
    "For a resource billed per_hour (per GetPricingSpec), cost_per_month is unit_price times 672 to 744 hours (28 to 31 days).",
  run: (session, context) =>
    judgeAnswers(
      context,
      projectedCost(session),
      `cost_per_month between ${hoursPerMonthRange.min} and ${hoursPerMonthRange.max} times unit_price`,
      async ({ value, fixture }) => {
        // Non-finite numbers are projected-cost.finite-non-negative's finding, not this one's.
        if (!Number.isFinite(value.unitPrice) || !Number.isFinite(value.costPerMonth)) return [];
        const spec = await callPricingSpec(session, fixture);
        if (!spec.ok || spec.value.spec?.billingMode !== "per_hour") return [];
        const low = value.unitPrice * hoursPerMonthRange.min * (1 - 1e-6);
        const high = value.unitPrice * hoursPerMonthRange.max * (1 + 1e-6);
        if (value.costPerMonth >= low && value.costPerMonth <= high) return [];
        return [
          `cost_per_month ${value.costPerMonth} for unit_price ${value.unitPrice} per hour (${(value.costPerMonth / value.unitPrice).toFixed(1)} hours)`,
        ];
      },
    ),
};

/** `projected-cost.rejects-empty-resource`. */
export const projectedCostEmptyResourceCheck: ProtocolCheck = {
  id: "projected-cost.rejects-empty-resource",
  level: "basic",
  scope: "protocol",
  description:
    "GetProjectedCost with an empty resource fails with invalid_argument (ErrorDetail INVALID_RESOURCE when a detail is sent).",
  async run(session, context) {
    const answers = await answersForFixtures(context.options.fixtures.resources, (fixture) =>
      callProjectedCost(session, fixture),
    );
    return rejectionVerdict(await callProjectedCostEmptyResource(session), {
      code: Code.InvalidArgument,
      detail: ErrorCode.INVALID_RESOURCE,
      method: "GetProjectedCost",
      methodAnswered: answers.answers.length > 0,
    });
  },
};
