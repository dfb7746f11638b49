import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ConnectError } from "@connectrpc/connect";
import type { CheckVerdict } from "../check-result.js";
import { fail, notApplicable, pass, skip } from "../check-result.js";
import type { ProtocolCheck, RunContext } from "../conformance-check.js";
import type { ConformanceLevel } from "../levels.js";
import type { ProtocolSession } from "../protocol-session.js";
import { describeError, isNotOffered } from "../rpc-outcome.js";
import { callProjectedCost, callSupports, descriptorFromFixture } from "../session-calls.js";
import { noActualCostFixture } from "./actual-cost-checks.js";
import { noResourceFixture } from "./supports-checks.js";

/** Average-latency bars of the public conformance suite, in milliseconds, by level. */
export interface LatencyBar {
  readonly standard: number;
  readonly advanced: number;
}

type PreparedCall = (() => Promise<unknown>) | CheckVerdict;

interface LatencyCheckDefinition {
  readonly id: string;
  readonly level: ConformanceLevel;
  readonly method: string;
  readonly what: string;
  readonly bar: LatencyBar;
  prepare(session: ProtocolSession, context: RunContext): PreparedCall;
}

const dayMs = 24 * 60 * 60 * 1000;
const round = (value: number) => Math.round(value * 100) / 100;

function latencyCheck(definition: LatencyCheckDefinition): ProtocolCheck {
  const bars =
    definition.level === "advanced"
      ? `${definition.bar.advanced} ms`
      : `${definition.bar.standard} ms (standard) / ${definition.bar.advanced} ms (advanced)`;
  return {
    id: definition.id,
    level: definition.level,
    scope: "protocol",
    description: `The average latency of ${definition.what} over the configured number of calls (10 by default, after one warm-up call) is at most ${bars}.`,
    async run(session, context) {
      const prepared = definition.prepare(session, context);
      if (typeof prepared !== "function") return prepared;
      const barMs =
        context.options.level === "advanced" ? definition.bar.advanced : definition.bar.standard;
      try {
        await prepared();
      } catch (error) {
        const connectError = ConnectError.from(error);
        return isNotOffered(connectError)
          ? notApplicable(`the plugin does not offer ${definition.method}`)
          : fail(`an answer to ${definition.method}`, describeError(connectError));
      }
      const clock = context.options.clock;
      const calls = context.options.performance.calls;
      let totalMs = 0;
      let maxMs = 0;
      for (let index = 0; index < calls; index++) {
        const startedAt = clock();
        try {
          await prepared();
        } catch (error) {
          return fail(
            `${calls} answers to ${definition.method}`,
            `call ${index + 1} failed: ${describeError(ConnectError.from(error))}`,
          );
        }
        const elapsed = clock() - startedAt;
        totalMs += elapsed;
        maxMs = Math.max(maxMs, elapsed);
      }
      const measurements = {
        averageMs: round(totalMs / calls),
        maxMs: round(maxMs),
        calls,
        barMs,
      };
      return measurements.averageMs <= barMs
        ? pass(`average ${measurements.averageMs} ms`, measurements)
        : fail(`an average of at most ${barMs} ms`, `${measurements.averageMs} ms`, measurements);
    },
  };
}

function firstFixture(context: RunContext) {
  return context.options.fixtures.resources[0];
}

type ResourceMethod = "supports" | "getProjectedCost" | "getPricingSpec";

/** A call of a resource-taking method with the first resource fixture, or a skip without one. */
function resourceCall(method: ResourceMethod) {
  return (session: ProtocolSession, context: RunContext): PreparedCall => {
    const fixture = firstFixture(context);
    if (fixture === undefined) return skip(noResourceFixture);
    const request = { resource: descriptorFromFixture(fixture) };
    return () => session.costSource[method](request, session.callOptions);
  };
}

function actualCostCall(days: number) {
  return (session: ProtocolSession, context: RunContext): PreparedCall => {
    const fixture = context.options.fixtures.actualCost;
    if (fixture === undefined) return skip(noActualCostFixture);
    const end = fixture.end;
    const start = new Date(end.getTime() - days * dayMs);
    const timeoutMs = Math.max(context.options.timeouts.callMs, 20_000);
    return () =>
      session.costSource.getActualCost(
        {
          resourceId: fixture.resourceId,
          start: timestampFromDate(start),
          end: timestampFromDate(end),
          tags: { ...fixture.tags },
        },
        { timeoutMs },
      );
  };
}

/** `performance.name-latency`. */
export const nameLatencyCheck = latencyCheck({
  id: "performance.name-latency",
  level: "standard",
  method: "Name",
  what: "Name",
  bar: { standard: 100, advanced: 50 },
  prepare: (session) => () => session.costSource.name({}, session.callOptions),
});

/** `performance.supports-latency`. */
export const supportsLatencyCheck = latencyCheck({
  id: "performance.supports-latency",
  level: "standard",
  method: "Supports",
  what: "Supports for the first resource fixture",
  bar: { standard: 50, advanced: 25 },
  prepare: resourceCall("supports"),
});

/** `performance.projected-cost-latency`. */
export const projectedCostLatencyCheck = latencyCheck({
  id: "performance.projected-cost-latency",
  level: "standard",
  method: "GetProjectedCost",
  what: "GetProjectedCost for the first resource fixture",
  bar: { standard: 200, advanced: 100 },
  prepare: resourceCall("getProjectedCost"),
});

/** `performance.pricing-spec-latency`. */
export const pricingSpecLatencyCheck = latencyCheck({
  id: "performance.pricing-spec-latency",
  level: "standard",
  method: "GetPricingSpec",
  what: "GetPricingSpec for the first resource fixture",
  bar: { standard: 200, advanced: 100 },
  prepare: resourceCall("getPricingSpec"),
});

/** `performance.actual-cost-24h-latency`. */
export const actualCostDayLatencyCheck = latencyCheck({
  id: "performance.actual-cost-24h-latency",
  level: "standard",
  method: "GetActualCost",
  what: "GetActualCost for the 24 hours before the fixture's end",
  bar: { standard: 2000, advanced: 1000 },
  prepare: actualCostCall(1),
});

/** `performance.actual-cost-30d-latency`. */
export const actualCostMonthLatencyCheck = latencyCheck({
  id: "performance.actual-cost-30d-latency",
  level: "advanced",
  method: "GetActualCost",
  what: "GetActualCost for the 30 days before the fixture's end",
  bar: { standard: 10_000, advanced: 10_000 },
  prepare: actualCostCall(30),
});

function concurrencyCheck(
  id: string,
  level: ConformanceLevel,
  callers: (context: RunContext) => number,
  defaultCallers: number,
): ProtocolCheck {
  return {
    id,
    level,
    scope: "protocol",
    description: `${defaultCallers} concurrent callers (configurable), each making several calls (Name, and Supports and GetProjectedCost for the first fixture when offered), all get answers.`,
    async run(session, context) {
      const calls: (() => Promise<unknown>)[] = [
        () => session.costSource.name({}, session.callOptions),
      ];
      const fixture = firstFixture(context);
      if (fixture !== undefined) {
        const resource = descriptorFromFixture(fixture);
        if ((await callSupports(session, fixture)).ok) {
          calls.push(() => session.costSource.supports({ resource }, session.callOptions));
        }
        if ((await callProjectedCost(session, fixture)).ok) {
          calls.push(() => session.costSource.getProjectedCost({ resource }, session.callOptions));
        }
      }
      const count = callers(context);
      const perCaller = context.options.performance.callsPerCaller;
      const clock = context.options.clock;
      let errors = 0;
      let firstError: string | undefined;
      let maxMs = 0;
      let totalCallMs = 0;
      const startedAt = clock();
      await Promise.all(
        Array.from({ length: count }, async (_, caller) => {
          for (let index = 0; index < perCaller; index++) {
            const call = calls[(caller + index) % calls.length] as () => Promise<unknown>;
            const callStartedAt = clock();
            try {
              await call();
            } catch (error) {
              errors++;
              firstError ??= describeError(ConnectError.from(error));
            }
            const elapsed = clock() - callStartedAt;
            totalCallMs += elapsed;
            maxMs = Math.max(maxMs, elapsed);
          }
        }),
      );
      const measurements = {
        callers: count,
        calls: count * perCaller,
        errors,
        totalMs: round(clock() - startedAt),
        averageMs: round(totalCallMs / (count * perCaller)),
        maxMs: round(maxMs),
      };
      return errors === 0
        ? pass(`${measurements.calls} calls, average ${measurements.averageMs} ms`, measurements)
        : fail(
            `no error from ${count} concurrent callers`,
            `${errors} of ${measurements.calls} calls failed, first: ${firstError}`,
            measurements,
          );
    },
  };
}

/** `performance.concurrent-callers-standard`. */
export const standardConcurrencyCheck = concurrencyCheck(
  "performance.concurrent-callers-standard",
  "standard",
  (context) => context.options.performance.standardConcurrency,
  10,
);

/** `performance.concurrent-callers-advanced`. */
export const advancedConcurrencyCheck = concurrencyCheck(
  "performance.concurrent-callers-advanced",
  "advanced",
  (context) => context.options.performance.advancedConcurrency,
  50,
);
