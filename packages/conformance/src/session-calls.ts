import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type {
  GetActualCostResponse,
  GetMetricsResponse,
  GetPricingSpecResponse,
  GetProjectedCostResponse,
  GetServiceLevelIndicatorsResponse,
  HealthCheckResponse,
  NameResponse,
  SupportsResponse,
} from "@costplugin/proto";
import type { HealthCheckResponse as GrpcHealthCheckResponse } from "@costplugin/proto/grpc-health";
import type { ActualCostFixture, ResourceFixture } from "./fixtures.js";
import { labelFromResourceFixture } from "./fixtures.js";
import type { ProtocolSession } from "./protocol-session.js";
import type { RpcOutcome } from "./rpc-outcome.js";
import { attempt, isNotOffered } from "./rpc-outcome.js";

// Every RPC the checks share is made once per session and key: several checks judge the same
// answer (a projected cost is checked for currency, finiteness and consistency).

/** A resource no plugin prices: Supports must say no, with a reason. */
export const unknownResource = {
  provider: "conformance-unknown-provider",
  resourceType: "conformance-unknown-type",
  sku: "conformance-unknown-sku",
  region: "conformance-nowhere-1",
  tags: {},
} as const;

/** The resource id used when no actual-cost fixture is given. */
export const probeResourceId = "conformance-probe-resource";

/** The fields of a ResourceDescriptor request, as a plain init object. */
export interface ResourceDescriptorInit {
  provider: string;
  resourceType: string;
  sku: string;
  region: string;
  tags: Record<string, string>;
}

/** The request fields of a resource fixture. */
export function descriptorFromFixture(fixture: ResourceFixture): ResourceDescriptorInit {
  return {
    provider: fixture.provider,
    resourceType: fixture.resourceType,
    sku: fixture.sku,
    region: fixture.region,
    tags: { ...fixture.tags },
  };
}

/** Name. */
export function callName(session: ProtocolSession): Promise<RpcOutcome<NameResponse>> {
  return session.memo("name", () =>
    attempt(() => session.costSource.name({}, session.callOptions)),
  );
}

/** Supports for a resource fixture. */
export function callSupports(
  session: ProtocolSession,
  fixture: ResourceFixture,
): Promise<RpcOutcome<SupportsResponse>> {
  return session.memo(`supports:${fixtureKey(fixture)}`, () =>
    attempt(() =>
      session.costSource.supports(
        { resource: descriptorFromFixture(fixture) },
        session.callOptions,
      ),
    ),
  );
}

/** Supports for `unknownResource`. */
export function callSupportsUnknown(
  session: ProtocolSession,
): Promise<RpcOutcome<SupportsResponse>> {
  return session.memo("supports:unknown", () =>
    attempt(() => session.costSource.supports({ resource: unknownResource }, session.callOptions)),
  );
}

/** GetProjectedCost for a resource fixture. */
export function callProjectedCost(
  session: ProtocolSession,
  fixture: ResourceFixture,
): Promise<RpcOutcome<GetProjectedCostResponse>> {
  return session.memo(`projected:${fixtureKey(fixture)}`, () =>
    attempt(() =>
      session.costSource.getProjectedCost(
        { resource: descriptorFromFixture(fixture) },
        session.callOptions,
      ),
    ),
  );
}

/** GetPricingSpec for a resource fixture. */
export function callPricingSpec(
  session: ProtocolSession,
  fixture: ResourceFixture,
): Promise<RpcOutcome<GetPricingSpecResponse>> {
  return session.memo(`spec:${fixtureKey(fixture)}`, () =>
    attempt(() =>
      session.costSource.getPricingSpec(
        { resource: descriptorFromFixture(fixture) },
        session.callOptions,
      ),
    ),
  );
}

/** GetProjectedCost with an empty resource descriptor: must be rejected as INVALID_RESOURCE. */
export function callProjectedCostEmptyResource(
  session: ProtocolSession,
): Promise<RpcOutcome<GetProjectedCostResponse>> {
  return session.memo("projected:empty", () =>
    attempt(() => session.costSource.getProjectedCost({ resource: {} }, session.callOptions)),
  );
}

/** GetProjectedCost for `unknownResource`: a failure the plugin reports in its own words. */
export function callProjectedCostUnknown(
  session: ProtocolSession,
): Promise<RpcOutcome<GetProjectedCostResponse>> {
  return session.memo("projected:unknown", () =>
    attempt(() =>
      session.costSource.getProjectedCost({ resource: unknownResource }, session.callOptions),
    ),
  );
}

/** GetPricingSpec with an empty resource descriptor. */
export function callPricingSpecEmptyResource(
  session: ProtocolSession,
): Promise<RpcOutcome<GetPricingSpecResponse>> {
  return session.memo("spec:empty", () =>
    attempt(() => session.costSource.getPricingSpec({ resource: {} }, session.callOptions)),
  );
}

/** GetActualCost for the actual-cost fixture. */
export function callActualCost(
  session: ProtocolSession,
  fixture: ActualCostFixture,
): Promise<RpcOutcome<GetActualCostResponse>> {
  return session.memo("actual:fixture", () =>
    attempt(() =>
      session.costSource.getActualCost(
        {
          resourceId: fixture.resourceId,
          start: timestampFromDate(fixture.start),
          end: timestampFromDate(fixture.end),
          tags: { ...fixture.tags },
        },
        session.callOptions,
      ),
    ),
  );
}

/** GetActualCost whose end lies before its start: must be INVALID_TIME_RANGE. */
export function callActualCostReversedRange(
  session: ProtocolSession,
  fixture: ActualCostFixture | undefined,
): Promise<RpcOutcome<GetActualCostResponse>> {
  return session.memo("actual:reversed", () =>
    attempt(() =>
      session.costSource.getActualCost(
        {
          resourceId: fixture?.resourceId ?? probeResourceId,
          start: timestampFromDate(new Date("2024-01-02T00:00:00Z")),
          end: timestampFromDate(new Date("2024-01-01T00:00:00Z")),
        },
        session.callOptions,
      ),
    ),
  );
}

/** GetActualCost without a resource id: must be INVALID_RESOURCE. */
export function callActualCostMissingResource(
  session: ProtocolSession,
  fixture: ActualCostFixture | undefined,
): Promise<RpcOutcome<GetActualCostResponse>> {
  return session.memo("actual:missing", () =>
    attempt(() =>
      session.costSource.getActualCost(
        {
          resourceId: "",
          start: timestampFromDate(fixture?.start ?? new Date("2024-01-01T00:00:00Z")),
          end: timestampFromDate(fixture?.end ?? new Date("2024-01-02T00:00:00Z")),
        },
        session.callOptions,
      ),
    ),
  );
}

/** ObservabilityService.HealthCheck with an empty request. */
export function callHealthCheck(
  session: ProtocolSession,
): Promise<RpcOutcome<HealthCheckResponse>> {
  return session.memo("health", () =>
    attempt(() => session.observability.healthCheck({}, session.callOptions)),
  );
}

/** ObservabilityService.GetMetrics for all metrics. */
export function callMetrics(session: ProtocolSession): Promise<RpcOutcome<GetMetricsResponse>> {
  return session.memo("metrics", () =>
    attempt(() => session.observability.getMetrics({}, session.callOptions)),
  );
}

/** ObservabilityService.GetServiceLevelIndicators over the last hour. */
export function callServiceLevelIndicators(
  session: ProtocolSession,
): Promise<RpcOutcome<GetServiceLevelIndicatorsResponse>> {
  return session.memo("slis", () => {
    const end = new Date();
    const start = new Date(end.getTime() - 60 * 60 * 1000);
    return attempt(() =>
      session.observability.getServiceLevelIndicators(
        { timeRange: { start: timestampFromDate(start), end: timestampFromDate(end) } },
        session.callOptions,
      ),
    );
  });
}

/** grpc.health.v1.Health/Check for the whole server. */
export function callGrpcHealth(
  session: ProtocolSession,
): Promise<RpcOutcome<GrpcHealthCheckResponse>> {
  return session.memo("grpc-health", () =>
    attempt(() => session.health().check({ service: "" }, session.callOptions)),
  );
}

/**
 * The answers of a method for every resource fixture, split into answers and failures, and
 * whether the method is simply not offered (every call `unimplemented` without ErrorDetail).
 */
export interface FixtureAnswers<T> {
  readonly notOffered: boolean;
  readonly answers: readonly {
    readonly label: string;
    readonly value: T;
    readonly fixture: ResourceFixture;
  }[];
  readonly failures: readonly { readonly label: string; readonly outcome: RpcOutcome<T> }[];
}

/** Calls `call` for every fixture and sorts the outcomes. */
export async function answersForFixtures<T>(
  fixtures: readonly ResourceFixture[],
  call: (fixture: ResourceFixture) => Promise<RpcOutcome<T>>,
): Promise<FixtureAnswers<T>> {
  const answers: { label: string; value: T; fixture: ResourceFixture }[] = [];
  const failures: { label: string; outcome: RpcOutcome<T> }[] = [];
  for (const fixture of fixtures) {
    const outcome = await call(fixture);
    const label = labelFromResourceFixture(fixture);
    if (outcome.ok) answers.push({ label, value: outcome.value, fixture });
    else failures.push({ label, outcome });
  }
  const notOffered =
    fixtures.length > 0 &&
    answers.length === 0 &&
    failures.every(({ outcome }) => !outcome.ok && isNotOffered(outcome.error));
  return { notOffered, answers, failures };
}

function fixtureKey(fixture: ResourceFixture): string {
  return JSON.stringify([
    fixture.provider,
    fixture.resourceType,
    fixture.sku,
    fixture.region,
    fixture.tags,
  ]);
}
