import { create } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate, timestampNow } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import type { ResourceDescriptor } from "@costplugin/proto";
import {
  CostSourceService,
  ErrorCategory,
  ErrorCode,
  ErrorDetailSchema,
  HealthCheckResponse_Status,
  MetricType,
  ObservabilityService,
  SLIStatus,
} from "@costplugin/proto";
import { Health, HealthCheckResponse_ServingStatus } from "@costplugin/proto/grpc-health";

/**
 * One deliberate defect of the fixture plugin, or `none` for a plugin that passes every check.
 * Each defect is meant to fail exactly one check.
 */
export type Fault =
  | "none"
  | "wrong-error-carrier"
  | "wrong-category"
  | "nan-costs"
  | "bad-currency"
  | "unknown-billing-mode"
  | "supports-without-reason"
  | "unordered-actual-cost"
  | "results-out-of-range"
  | "missing-health";

/** The resource the fixture plugin prices, and the actual-cost fixture it serves. */
export const fixtureResource = "aws/ec2/t3.micro/us-east-1";
export const fixtureActualCost = {
  resourceId: "i-0123456789",
  start: "2025-01-01T00:00:00Z",
  end: "2025-01-04T00:00:00Z",
} as const;

const hourly = 0.0104;
const dayMs = 24 * 60 * 60 * 1000;

const statusByCode: Partial<Record<ErrorCode, Code>> = {
  [ErrorCode.INVALID_RESOURCE]: Code.InvalidArgument,
  [ErrorCode.INVALID_TIME_RANGE]: Code.InvalidArgument,
  [ErrorCode.INVALID_PROVIDER]: Code.Unimplemented,
};

const categoryByCode: Partial<Record<ErrorCode, ErrorCategory>> = {
  [ErrorCode.INVALID_RESOURCE]: ErrorCategory.PERMANENT,
  [ErrorCode.INVALID_TIME_RANGE]: ErrorCategory.PERMANENT,
  [ErrorCode.INVALID_PROVIDER]: ErrorCategory.CONFIGURATION,
};

/**
 * Routes of a small plugin written directly against the generated services (no SDK), so each
 * defect can be planted exactly where the SDK would prevent it.
 */
export function faultyRoutes(fault: Fault): (router: ConnectRouter) => void {
  const failure = (code: ErrorCode, message: string): ConnectError => {
    const status = statusByCode[code] ?? Code.Internal;
    if (fault === "wrong-error-carrier") return new ConnectError(message, status);
    const category =
      fault === "wrong-category" ? ErrorCategory.TRANSIENT : (categoryByCode[code] ?? ErrorCategory.UNSPECIFIED);
    const detail = create(ErrorDetailSchema, { code, category, message, timestamp: timestampNow() });
    return new ConnectError(message, status, undefined, [{ desc: ErrorDetailSchema, value: detail }]);
  };
  const priced = (resource: ResourceDescriptor | undefined): ResourceDescriptor => {
    if (!resource || resource.provider === "" || resource.resourceType === "") {
      throw failure(ErrorCode.INVALID_RESOURCE, "resource needs a provider and a resource type");
    }
    if (resource.provider !== "aws" || resource.resourceType !== "ec2") {
      throw failure(ErrorCode.INVALID_PROVIDER, `only aws/ec2 is priced, not ${resource.provider}`);
    }
    return resource;
  };
  return (router) => {
    router.service(CostSourceService, {
      name: () => ({ name: "conformance-fixture" }),
      supports: (request) => {
        const resource = request.resource;
        if (!resource || resource.provider === "" || resource.resourceType === "") {
          throw failure(ErrorCode.INVALID_RESOURCE, "resource needs a provider and a resource type");
        }
        if (resource.provider === "aws" && resource.resourceType === "ec2") return { supported: true };
        return {
          supported: false,
          reason: fault === "supports-without-reason" ? "" : "only aws/ec2 is priced",
        };
      },
      getProjectedCost: (request) => {
        priced(request.resource);
        return {
          unitPrice: fault === "nan-costs" ? Number.NaN : hourly,
          currency: fault === "bad-currency" ? "usd$" : "USD",
          costPerMonth: fault === "nan-costs" ? Number.NaN : hourly * 730,
          billingDetail: "on-demand",
        };
      },
      getPricingSpec: (request) => {
        const resource = priced(request.resource);
        return {
          spec: {
            provider: resource.provider,
            resourceType: resource.resourceType,
            sku: resource.sku,
            region: resource.region,
            billingMode: fault === "unknown-billing-mode" ? "hourly" : "per_hour",
            ratePerUnit: hourly,
            currency: "USD",
            description: "fixture price",
            source: "fixture",
          },
        };
      },
      getActualCost: (request) => {
        if (request.resourceId === "") {
          throw failure(ErrorCode.INVALID_RESOURCE, "resource_id is required");
        }
        if (!request.start || !request.end) {
          throw failure(ErrorCode.INVALID_TIME_RANGE, "start and end are required");
        }
        const start = timestampDate(request.start).getTime();
        const end = timestampDate(request.end).getTime();
        if (end <= start) throw failure(ErrorCode.INVALID_TIME_RANGE, "end must be after start");
        const results = [];
        for (let at = start; at < end; at += dayMs) {
          results.push({ timestamp: timestampFromDate(new Date(at)), cost: hourly * 24, usageAmount: 24, usageUnit: "hour", source: "fixture" });
        }
        if (fault === "results-out-of-range") {
          results.push({ timestamp: timestampFromDate(new Date(end)), cost: 1, usageAmount: 1, usageUnit: "hour", source: "fixture" });
        }
        if (fault === "unordered-actual-cost") results.reverse();
        return { results };
      },
    });
    router.service(ObservabilityService, {
      ...(fault === "missing-health"
        ? {}
        : {
            healthCheck: () => ({
              status: HealthCheckResponse_Status.SERVING,
              lastCheckTime: timestampNow(),
            }),
          }),
      getMetrics: () => ({
        timestamp: timestampNow(),
        format: "json",
        metrics: [
          {
            name: "fixture_requests_total",
            help: "Requests answered.",
            type: MetricType.COUNTER,
            samples: [{ labels: { method: "Name" }, value: 1, timestamp: timestampNow() }],
          },
        ],
      }),
      getServiceLevelIndicators: () => ({
        measurementTime: timestampNow(),
        slis: [
          {
            name: "availability",
            description: "Share of calls answered without a server error.",
            value: 1,
            unit: "ratio",
            targetValue: 0.999,
            status: SLIStatus.SLI_STATUS_MEETING_TARGET,
          },
        ],
      }),
    });
    router.service(Health, {
      check: () => ({ status: HealthCheckResponse_ServingStatus.SERVING }),
    });
  };
}
