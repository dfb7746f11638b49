import type { CheckVerdict } from "../check-result.js";
import { fail, notApplicable, pass, skip } from "../check-result.js";
import type { RunContext } from "../conformance-check.js";
import type { ResourceFixture } from "../fixtures.js";
import type { RpcOutcome } from "../rpc-outcome.js";
import { describeOutcome } from "../rpc-outcome.js";
import type { FixtureAnswers } from "../session-calls.js";
import { answersForFixtures } from "../session-calls.js";
import { noResourceFixture } from "./supports-checks.js";

/** How a method is called for a fixture, and under which check its answers are counted. */
export interface FixtureMethod<T> {
  /** The RPC name, e.g. `GetProjectedCost`. */
  readonly name: string;
  /** The id of the check that reports failed calls, e.g. `projected-cost.answers`. */
  readonly answersCheckId: string;
  /** Makes (or reuses) the call for one fixture. */
  call(fixture: ResourceFixture): Promise<RpcOutcome<T>>;
}

/** The verdict of an `*.answers` check: every fixture got an answer. */
export async function answersVerdict<T>(
  context: RunContext,
  method: FixtureMethod<T>,
  validate: (value: T) => string | undefined = () => undefined,
): Promise<CheckVerdict> {
  const fixtures = context.options.fixtures.resources;
  if (fixtures.length === 0) return skip(noResourceFixture);
  const result = await answersForFixtures(fixtures, (fixture) => method.call(fixture));
  if (result.notOffered) return notApplicable(`the plugin does not offer ${method.name}`);
  const problems = [
    ...result.failures.map(({ label, outcome }) => `${label}: ${describeOutcome(outcome)}`),
    ...result.answers.flatMap(({ label, value }) => {
      const problem = validate(value);
      return problem ? [`${label}: ${problem}`] : [];
    }),
  ];
  if (problems.length > 0) {
    return fail(`an answer to ${method.name} for every resource fixture`, problems.join("; "));
  }
  return pass();
}

/**
 * The verdict of a check judging the answers of a method: skipped without fixtures or
 * answers, not applicable when the method is not offered, failed when `judge` finds problems.
 */
export async function judgeAnswers<T>(
  context: RunContext,
  method: FixtureMethod<T>,
  expectation: string,
  judge: (answer: FixtureAnswers<T>["answers"][number]) => Promise<string[]> | string[],
): Promise<CheckVerdict> {
  const fixtures = context.options.fixtures.resources;
  if (fixtures.length === 0) return skip(noResourceFixture);
  const result = await answersForFixtures(fixtures, (fixture) => method.call(fixture));
  if (result.notOffered) return notApplicable(`the plugin does not offer ${method.name}`);
  if (result.answers.length === 0) {
    return skip(`${method.name} answered no fixture (see ${method.answersCheckId})`);
  }
  const problems: string[] = [];
  for (const answer of result.answers) {
    for (const problem of await judge(answer)) problems.push(`${answer.label}: ${problem}`);
  }
  return problems.length > 0 ? fail(expectation, problems.join("; ")) : pass();
}

/** Problems of a number that must be finite and non-negative. */
export function finiteNonNegativeProblems(name: string, value: number): string[] {
  if (!Number.isFinite(value)) return [`${name} is ${value}`];
  if (value < 0) return [`${name} is negative (${value})`];
  return [];
}
