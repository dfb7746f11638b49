import { timestampMs } from "@bufbuild/protobuf/wkt";
import { HealthCheckResponse_Status, MetricType, SLIStatus } from "@costplugin/proto";
import { HealthCheckResponse_ServingStatus } from "@costplugin/proto/grpc-health";
import { fail, notApplicable, pass } from "../check-result.js";
import type { ProtocolCheck } from "../conformance-check.js";
import { describeError, isNotOffered } from "../rpc-outcome.js";
import {
  callGrpcHealth,
  callHealthCheck,
  callMetrics,
  callServiceLevelIndicators,
} from "../session-calls.js";

/** Allowed clock skew between the kit and the plugin. */
const clockSkewMs = 5 * 60 * 1000;
const metricName = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const labelName = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** `observability.health-check`. */
export const healthCheckCheck: ProtocolCheck = {
  id: "observability.health-check",
  level: "basic",
  scope: "protocol",
  description:
    "ObservabilityService.HealthCheck answers a status (SERVING, NOT_SERVING or SERVICE_UNKNOWN) and a last_check_time that is not in the future.",
  async run(session) {
    const outcome = await callHealthCheck(session);
    const expected = "a status and a last_check_time";
    if (!outcome.ok) return fail(expected, describeError(outcome.error));
    const { status, lastCheckTime } = outcome.value;
    if (
      status === HealthCheckResponse_Status.UNSPECIFIED ||
      HealthCheckResponse_Status[status] === undefined
    ) {
      return fail(expected, `status ${HealthCheckResponse_Status[status] ?? status}`);
    }
    if (lastCheckTime === undefined) return fail(expected, "no last_check_time");
    const at = timestampMs(lastCheckTime);
    if (at > Date.now() + clockSkewMs) {
      return fail(expected, `last_check_time ${new Date(at).toISOString()} is in the future`);
    }
    return pass(`status ${HealthCheckResponse_Status[status]}`);
  },
};

/** `observability.metrics`. */
export const metricsCheck: ProtocolCheck = {
  id: "observability.metrics",
  level: "standard",
  scope: "protocol",
  description:
    "GetMetrics (when offered) answers metrics with Prometheus-valid, unique names, a known type, valid label names and a timestamp.",
  async run(session) {
    const outcome = await callMetrics(session);
    if (!outcome.ok) {
      return isNotOffered(outcome.error)
        ? notApplicable("the plugin does not offer GetMetrics (optional)")
        : fail("a GetMetricsResponse", describeError(outcome.error));
    }
    const problems: string[] = [];
    if (outcome.value.timestamp === undefined) problems.push("no timestamp");
    const seen = new Set<string>();
    for (const metric of outcome.value.metrics) {
      if (!metricName.test(metric.name))
        problems.push(`metric name ${JSON.stringify(metric.name)}`);
      if (seen.has(metric.name)) problems.push(`metric ${metric.name} appears twice`);
      seen.add(metric.name);
      if (metric.type === MetricType.UNSPECIFIED || MetricType[metric.type] === undefined) {
        problems.push(`metric ${metric.name} has type ${MetricType[metric.type] ?? metric.type}`);
      }
      for (const sample of metric.samples) {
        for (const label of Object.keys(sample.labels)) {
          if (!labelName.test(label))
            problems.push(`metric ${metric.name} label ${JSON.stringify(label)}`);
        }
      }
    }
    if (problems.length > 0) return fail("well-formed metrics", problems.slice(0, 10).join("; "));
    return pass(`${outcome.value.metrics.length} metrics`);
  },
};

/** `observability.service-level-indicators`. */
export const serviceLevelIndicatorsCheck: ProtocolCheck = {
  id: "observability.service-level-indicators",
  level: "standard",
  scope: "protocol",
  description:
    "GetServiceLevelIndicators (when offered) answers SLIs with a name, finite value and target, a known status, and a measurement_time.",
  async run(session) {
    const outcome = await callServiceLevelIndicators(session);
    if (!outcome.ok) {
      return isNotOffered(outcome.error)
        ? notApplicable("the plugin does not offer GetServiceLevelIndicators (optional)")
        : fail("a GetServiceLevelIndicatorsResponse", describeError(outcome.error));
    }
    const problems: string[] = [];
    if (outcome.value.measurementTime === undefined) problems.push("no measurement_time");
    outcome.value.slis.forEach((sli, index) => {
      const name = sli.name.trim() === "" ? `sli ${index}` : sli.name;
      if (sli.name.trim() === "") problems.push(`sli ${index} has no name`);
      if (!Number.isFinite(sli.value)) problems.push(`${name} value is ${sli.value}`);
      if (!Number.isFinite(sli.targetValue)) problems.push(`${name} target is ${sli.targetValue}`);
      if (SLIStatus[sli.status] === undefined) problems.push(`${name} status ${sli.status}`);
    });
    if (problems.length > 0) return fail("well-formed SLIs", problems.slice(0, 10).join("; "));
    return pass(`${outcome.value.slis.length} SLIs`);
  },
};

/** `observability.grpc-health`. */
export const grpcHealthCheck: ProtocolCheck = {
  id: "observability.grpc-health",
  level: "advanced",
  scope: "protocol",
  description:
    'The standard grpc.health.v1 Health/Check answers SERVING for the server (""), as orchestrators probe it.',
  async run(session) {
    const outcome = await callGrpcHealth(session);
    if (!outcome.ok) return fail("status SERVING", describeError(outcome.error));
    if (outcome.value.status !== HealthCheckResponse_ServingStatus.SERVING) {
      return fail(
        "status SERVING",
        `status ${HealthCheckResponse_ServingStatus[outcome.value.status] ?? outcome.value.status}`,
      );
    }
    return pass();
  },
};
