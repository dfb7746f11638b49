import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { HealthCheckResponse_Status, ObservabilityService } from "@costplugin/proto";
import { invalidArgumentError, runGuarded } from "./error-boundary.js";
import {
  costPluginStatusFromSnapshot,
  healthCheckedServices,
  quotedServiceName,
} from "./health-services.js";
import type { PluginLogger } from "./logger.js";
import { metricsFromRegistry } from "./metrics-snapshot.js";
import type { Observability } from "./observability.js";
import type { SliName } from "./service-level-indicators.js";
import { sliNames } from "./service-level-indicators.js";
import { invalidTimeRange, validateTimeRange } from "./time-range.js";

/** Formats GetMetrics accepts; the first is the default. */
export const metricsFormats = ["json", "prometheus"] as const;

/** Most `metric_names` a GetMetrics request may list, and their longest length. */
export const metricNamesLimits = { maxNames: 256, maxNameLength: 256 } as const;

/** Options of `createObservabilityService`. */
export interface ObservabilityServiceOptions {
  /** The measurements to answer from. */
  readonly observability: Observability;
  /** Where unexpected failures (a plugin metric's collect throwing) are logged. */
  readonly logger: PluginLogger;
}

/**
 * The costplugin.v1 ObservabilityService: HealthCheck from the health probe, GetMetrics from the
 * prom-client registry, GetServiceLevelIndicators from the SLI window.
 */
export function createObservabilityService(
  options: ObservabilityServiceOptions,
): ServiceImpl<typeof ObservabilityService> {
  const { observability, logger } = options;
  const site = (method: string, context: HandlerContext) => ({
    service: ObservabilityService.typeName,
    method,
    signal: context.signal,
    logger,
  });
  return {
    healthCheck: (request, context) =>
      runGuarded(site("HealthCheck", context), async () => {
        if (!healthCheckedServices.has(request.serviceName)) {
          return {
            status: HealthCheckResponse_Status.SERVICE_UNKNOWN,
            message: `unknown service ${quotedServiceName(request.serviceName)}`,
          };
        }
        const snapshot = await observability.health();
        return {
          status: costPluginStatusFromSnapshot(snapshot),
          message: snapshot.message,
          lastCheckTime: timestampFromMs(Math.floor(snapshot.lastChangeMs)),
        };
      }),
    getMetrics: (request, context) =>
      runGuarded(site("GetMetrics", context), async () => {
        const format = metricsFormat(request.format);
        validateMetricNames(request.metricNames);
        const metrics = await metricsFromRegistry(observability.registry, request.metricNames);
        return {
          metrics,
          format,
          timestamp: timestampFromMs(Math.floor(observability.clock.now())),
        };
      }),
    getServiceLevelIndicators: (request, context) =>
      runGuarded(site("GetServiceLevelIndicators", context), () => {
        if (request.timeRange === undefined) {
          throw invalidTimeRange("time_range", "time_range is required");
        }
        const range = validateTimeRange(request.timeRange.start, request.timeRange.end, {
          startField: "time_range.start",
          endField: "time_range.end",
        });
        const wanted = wantedSlis(request.sliNames);
        const slis = observability
          .serviceLevelIndicators(range)
          .filter((sli) => wanted.has(sli.name));
        return {
          slis,
          measurementTime: timestampFromMs(Math.floor(observability.clock.now())),
        };
      }),
  };
}

function metricsFormat(requested: string): (typeof metricsFormats)[number] {
  const format = requested.trim().toLowerCase();
  if (format === "") return "json";
  for (const known of metricsFormats) {
    if (format === known) return known;
  }
  const shown = requested.length > 64 ? `${requested.slice(0, 64)}...` : requested;
  throw invalidArgumentError(
    "format",
    `format ${JSON.stringify(shown)} is not supported; use "json" (the default) or "prometheus"`,
  );
}

function validateMetricNames(names: readonly string[]): void {
  if (names.length > metricNamesLimits.maxNames) {
    throw invalidArgumentError(
      "metric_names",
      `metric_names has ${names.length} entries; at most ${metricNamesLimits.maxNames} are allowed`,
    );
  }
  for (const name of names) {
    if (name.length > metricNamesLimits.maxNameLength) {
      throw invalidArgumentError(
        "metric_names",
        `an entry of metric_names is ${name.length} characters long; at most ${metricNamesLimits.maxNameLength} are allowed`,
      );
    }
  }
}

// Unknown names are echoed back, so their number and length are bounded first.
const maxSliNames = 32;
const maxSliNameLength = 64;

function wantedSlis(requested: readonly string[]): ReadonlySet<string> {
  if (requested.length === 0) return new Set(sliNames);
  if (requested.length > maxSliNames) {
    throw invalidArgumentError(
      "sli_names",
      `sli_names has ${requested.length} entries; at most ${maxSliNames} are allowed`,
    );
  }
  const known = new Set<string>(sliNames);
  const unknown = requested.filter((name) => !known.has(name));
  if (unknown.some((name) => name.length > maxSliNameLength)) {
    throw invalidArgumentError(
      "sli_names",
      `an entry of sli_names is longer than ${maxSliNameLength} characters; known SLIs: ${sliNames.join(", ")}`,
    );
  }
  if (unknown.length > 0) {
    throw invalidArgumentError(
      "sli_names",
      `unknown SLI names: ${[...new Set(unknown)].map((name) => JSON.stringify(name)).join(", ")}; known: ${sliNames.join(", ")}`,
    );
  }
  return new Set<SliName | string>(requested);
}
