import type { GetPricingSpecResponse } from "@costplugin/proto";
import type { ProtocolCheck } from "../conformance-check.js";
import { isIso4217Code } from "../iso-4217.js";
import type { ProtocolSession } from "../protocol-session.js";
import { callPricingSpec, callProjectedCost } from "../session-calls.js";
import type { FixtureMethod } from "./fixture-verdicts.js";
import { answersVerdict, finiteNonNegativeProblems, judgeAnswers } from "./fixture-verdicts.js";

/** The billing modes of the protocol (one list, used by the schema, the SDK and the kit). */
export const knownBillingModes: readonly string[] = [
  "per_hour",
  "per_gb_month",
  "per_request",
  "per_invocation",
  "per_gb_second",
  "per_day",
  "per_month",
  "flat",
];

function pricingSpec(session: ProtocolSession): FixtureMethod<GetPricingSpecResponse> {
  return {
    name: "GetPricingSpec",
    answersCheckId: "pricing-spec.answers",
    call: (fixture) => callPricingSpec(session, fixture),
  };
}

/** `pricing-spec.answers`. */
export const pricingSpecAnswersCheck: ProtocolCheck = {
  id: "pricing-spec.answers",
  level: "basic",
  scope: "protocol",
  description: "GetPricingSpec answers with a spec for every resource fixture.",
  run: (session, context) =>
    answersVerdict(context, pricingSpec(session), (value) =>
      value.spec === undefined ? "the response has no spec" : undefined,
    ),
};

/** `pricing-spec.currency-iso4217`. */
export const pricingSpecCurrencyCheck: ProtocolCheck = {
  id: "pricing-spec.currency-iso4217",
  level: "basic",
  scope: "protocol",
  description: "GetPricingSpec's currency is an ISO 4217 code.",
  run: (session, context) =>
    judgeAnswers(context, pricingSpec(session), "an ISO 4217 currency code", ({ value }) => {
      if (value.spec === undefined) return [];
      return isIso4217Code(value.spec.currency)
        ? []
        : [`currency ${JSON.stringify(value.spec.currency)}`];
    }),
};

/** `pricing-spec.finite-non-negative`. */
export const pricingSpecFiniteCheck: ProtocolCheck = {
  id: "pricing-spec.finite-non-negative",
  level: "basic",
  scope: "protocol",
  description: "GetPricingSpec's rate_per_unit is finite and non-negative.",
  run: (session, context) =>
    judgeAnswers(
      context,
      pricingSpec(session),
      "a finite, non-negative rate_per_unit",
      ({ value }) =>
        value.spec === undefined
          ? []
          : finiteNonNegativeProblems("rate_per_unit", value.spec.ratePerUnit),
    ),
};

/** `pricing-spec.billing-mode-known`. */
export const pricingSpecBillingModeCheck: ProtocolCheck = {
  id: "pricing-spec.billing-mode-known",
  level: "basic",
  scope: "protocol",
  description: `GetPricingSpec's billing_mode is one of ${knownBillingModes.join(", ")}.`,
  run: (session, context) =>
    judgeAnswers(
      context,
      pricingSpec(session),
      `a billing_mode among ${knownBillingModes.join(", ")}`,
      ({ value }) => {
        if (value.spec === undefined) return [];
        return knownBillingModes.includes(value.spec.billingMode)
          ? []
          : [`billing_mode ${JSON.stringify(value.spec.billingMode)}`];
      },
    ),
};

/** `pricing-spec.consistent-with-projected-cost`. */
export const pricingSpecConsistencyCheck: ProtocolCheck = {
  id: "pricing-spec.consistent-with-projected-cost",
  level: "standard",
  scope: "protocol",
  description:
    "GetPricingSpec and GetProjectedCost agree for each fixture: same currency, and for per_hour billing rate_per_unit equals unit_price.",
  run: (session, context) =>
    judgeAnswers(
      context,
      pricingSpec(session),
      "the same currency, and rate_per_unit = unit_price for per_hour billing",
      async ({ value, fixture }) => {
        const projected = await callProjectedCost(session, fixture);
        if (value.spec === undefined || !projected.ok) return [];
        const spec = value.spec;
        const cost = projected.value;
        const problems: string[] = [];
        // An invalid currency is the currency checks' finding; only valid ones are compared.
        const currenciesValid = isIso4217Code(spec.currency) && isIso4217Code(cost.currency);
        if (currenciesValid && spec.currency !== cost.currency) {
          problems.push(
            `currency ${spec.currency} in the spec, ${cost.currency} in the projected cost`,
          );
        }
        // Non-finite numbers are reported by the finite-non-negative checks.
        const comparable = Number.isFinite(spec.ratePerUnit) && Number.isFinite(cost.unitPrice);
        if (
          spec.billingMode === "per_hour" &&
          comparable &&
          Math.abs(spec.ratePerUnit - cost.unitPrice) > 1e-9 * Math.max(1, Math.abs(cost.unitPrice))
        ) {
          problems.push(`rate_per_unit ${spec.ratePerUnit}, unit_price ${cost.unitPrice}`);
        }
        return problems;
      },
    ),
};
