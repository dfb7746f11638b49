import type { ConnectError } from "@connectrpc/connect";
import { ErrorCategory, ErrorCode } from "@costplugin/proto";
import type { CheckVerdict } from "../check-result.js";
import { fail, notApplicable, pass } from "../check-result.js";
import type { ProtocolCheck, RunContext } from "../conformance-check.js";
import { expectedCategory, expectedStatusCode } from "../error-code-table.js";
import type { ProtocolSession } from "../protocol-session.js";
import type { DecodedErrorDetail, RpcOutcome } from "../rpc-outcome.js";
import { decodeErrorDetail, describeError, isNotOffered } from "../rpc-outcome.js";
import {
  answersForFixtures,
  callActualCost,
  callActualCostMissingResource,
  callActualCostReversedRange,
  callPricingSpec,
  callPricingSpecEmptyResource,
  callProjectedCost,
  callProjectedCostEmptyResource,
  callProjectedCostUnknown,
} from "../session-calls.js";
import { codeName } from "../wire-format.js";

/** A failure the kit provoked on purpose, and the request that provoked it. */
interface ProvokedFailure {
  readonly request: string;
  readonly error: ConnectError;
}

/**
 * Makes (or reuses) every request a plugin must refuse and keeps the failures. A plain
 * `unimplemented` from a method that answered nothing in this session means "not offered" and
 * is left out: it is the framework's answer, not the plugin's report.
 */
async function provokedFailures(
  session: ProtocolSession,
  context: RunContext,
): Promise<ProvokedFailure[]> {
  const fixtures = context.options.fixtures;
  const projectedAnswered =
    (await answersForFixtures(fixtures.resources, (f) => callProjectedCost(session, f))).answers
      .length > 0;
  const specAnswered =
    (await answersForFixtures(fixtures.resources, (f) => callPricingSpec(session, f))).answers
      .length > 0;
  const actualAnswered =
    fixtures.actualCost !== undefined && (await callActualCost(session, fixtures.actualCost)).ok;
  const probes: [string, boolean, Promise<RpcOutcome<unknown>>][] = [
    [
      "GetProjectedCost with an empty resource",
      projectedAnswered,
      callProjectedCostEmptyResource(session),
    ],
    [
      "GetProjectedCost for an unknown provider",
      projectedAnswered,
      callProjectedCostUnknown(session),
    ],
    ["GetPricingSpec with an empty resource", specAnswered, callPricingSpecEmptyResource(session)],
    [
      "GetActualCost with end before start",
      actualAnswered,
      callActualCostReversedRange(session, fixtures.actualCost),
    ],
    [
      "GetActualCost without a resource id",
      actualAnswered,
      callActualCostMissingResource(session, fixtures.actualCost),
    ],
  ];
  const failures: ProvokedFailure[] = [];
  for (const [request, methodAnswered, pending] of probes) {
    const outcome = await pending;
    if (outcome.ok) continue;
    if (!methodAnswered && isNotOffered(outcome.error)) continue;
    failures.push({ request, error: outcome.error });
  }
  return failures;
}

async function judgeDetails(
  session: ProtocolSession,
  context: RunContext,
  expectation: string,
  judge: (decoded: DecodedErrorDetail, error: ConnectError) => string | undefined,
): Promise<CheckVerdict> {
  const failures = await provokedFailures(session, context);
  const withDetail = failures.flatMap(({ request, error }) => {
    const decoded = decodeErrorDetail(error);
    return decoded ? [{ request, error, decoded }] : [];
  });
  if (withDetail.length === 0) return notApplicable("no failure carried an ErrorDetail to judge");
  const problems = withDetail.flatMap(({ request, error, decoded }) => {
    const problem = judge(decoded, error);
    return problem ? [`${request}: ${problem}`] : [];
  });
  return problems.length > 0
    ? fail(expectation, problems.join("; "))
    : pass(`${withDetail.length} failures judged`);
}

/** `errors.detail-present`. */
export const errorDetailPresentCheck: ProtocolCheck = {
  id: "errors.detail-present",
  level: "basic",
  scope: "protocol",
  description:
    "Every failure the plugin reports (empty resource, unknown provider, reversed range, missing resource id) carries a decodable costplugin.v1.ErrorDetail.",
  async run(session, context) {
    const failures = await provokedFailures(session, context);
    if (failures.length === 0) return notApplicable("no request could be made to fail");
    const missing = failures.filter(({ error }) => decodeErrorDetail(error) === undefined);
    if (missing.length === 0) return pass(`${failures.length} failures carried one`);
    return fail(
      "an ErrorDetail in the details of every failure",
      missing.map(({ request, error }) => `${request}: ${describeError(error)}`).join("; "),
    );
  },
};

/** `errors.detail-category-matches-code`. */
export const errorCategoryCheck: ProtocolCheck = {
  id: "errors.detail-category-matches-code",
  level: "basic",
  scope: "protocol",
  description:
    "Every ErrorDetail names an ErrorCode and the category that code belongs to (1-5 transient, 6-11 permanent, 12-16 configuration).",
  run: (session, context) =>
    judgeDetails(session, context, "a known code and its category", ({ detail, sentCategory }) => {
      const code = ErrorCode[detail.code] ?? String(detail.code);
      const category = ErrorCategory[sentCategory] ?? String(sentCategory);
      if (detail.code === ErrorCode.UNSPECIFIED || ErrorCode[detail.code] === undefined) {
        return `code ${code}`;
      }
      const expected = expectedCategory(detail.code);
      return expected === sentCategory
        ? undefined
        : `code ${code} with category ${category} (expected ${ErrorCategory[expected]})`;
    }),
};

/** `errors.status-matches-code`. */
export const errorStatusCheck: ProtocolCheck = {
  id: "errors.status-matches-code",
  level: "standard",
  scope: "protocol",
  description:
    "Every failure's Connect/gRPC status code is the one the protocol maps its ErrorCode to (e.g. INVALID_TIME_RANGE travels as invalid_argument).",
  run: (session, context) =>
    judgeDetails(session, context, "the status code of the mapping table", ({ detail }, error) => {
      const expected = expectedStatusCode(detail.code);
      if (expected === undefined || expected === error.code) return undefined;
      return `ErrorDetail ${ErrorCode[detail.code]} travels as ${codeName(error.code)} (expected ${codeName(expected)})`;
    }),
};
