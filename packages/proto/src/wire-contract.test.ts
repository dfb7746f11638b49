import type { DescEnum, DescField, DescMessage, DescService } from "@bufbuild/protobuf";
import { ScalarType } from "@bufbuild/protobuf";
import {
  CostSourceService,
  file_costplugin_v1_costsource,
  file_costplugin_v1_errors,
  file_costplugin_v1_observability,
  file_costplugin_v1_resource,
  ObservabilityService,
} from "@costplugin/proto";
import { describe, expect, it } from "vitest";

// Field names, numbers and types, enum values and methods as the protocol specification states
// them (seed sections 2, 4 and 7, and protocol-notes.md). They are binding for wire
// compatibility with plugins and hosts written in other languages: this list is written from the
// specification, not from the generated code, so a renumbered or retyped field fails here.
const specifiedMessages: Record<string, string[]> = {
  ResourceDescriptor: [
    "provider = 1 string",
    "resource_type = 2 string",
    "sku = 3 string",
    "region = 4 string",
    "tags = 5 map<string, string>",
  ],
  NameRequest: [],
  NameResponse: ["name = 1 string"],
  SupportsRequest: ["resource = 1 costplugin.v1.ResourceDescriptor"],
  SupportsResponse: ["supported = 1 bool", "reason = 2 string"],
  GetProjectedCostRequest: ["resource = 1 costplugin.v1.ResourceDescriptor"],
  GetProjectedCostResponse: [
    "unit_price = 1 double",
    "currency = 2 string",
    "cost_per_month = 3 double",
    "billing_detail = 4 string",
  ],
  GetActualCostRequest: [
    "resource_id = 1 string",
    "start = 2 google.protobuf.Timestamp",
    "end = 3 google.protobuf.Timestamp",
    "tags = 4 map<string, string>",
  ],
  GetActualCostResponse: ["results = 1 repeated costplugin.v1.ActualCostResult"],
  ActualCostResult: [
    "timestamp = 1 google.protobuf.Timestamp",
    "cost = 2 double",
    "usage_amount = 3 double",
    "usage_unit = 4 string",
    "source = 5 string",
  ],
  GetPricingSpecRequest: ["resource = 1 costplugin.v1.ResourceDescriptor"],
  GetPricingSpecResponse: ["spec = 1 costplugin.v1.PricingSpec"],
  PricingSpec: [
    "provider = 1 string",
    "resource_type = 2 string",
    "sku = 3 string",
    "region = 4 string",
    "billing_mode = 5 string",
    "rate_per_unit = 6 double",
    "currency = 7 string",
    "description = 8 string",
    "metric_hints = 9 repeated costplugin.v1.UsageMetricHint",
    "plugin_metadata = 10 map<string, string>",
    "source = 11 string",
  ],
  UsageMetricHint: ["metric = 1 string", "unit = 2 string"],
  ErrorDetail: [
    "code = 1 costplugin.v1.ErrorCode",
    "category = 2 costplugin.v1.ErrorCategory",
    "message = 3 string",
    "details = 4 map<string, string>",
    "retry_after_seconds = 5 optional int32",
    "timestamp = 6 google.protobuf.Timestamp",
  ],
  HealthCheckRequest: ["service_name = 1 string"],
  HealthCheckResponse: [
    "status = 1 costplugin.v1.HealthCheckResponse.Status",
    "message = 2 string",
    "last_check_time = 3 google.protobuf.Timestamp",
  ],
  GetMetricsRequest: ["metric_names = 1 repeated string", "format = 2 string"],
  GetMetricsResponse: [
    "metrics = 1 repeated costplugin.v1.Metric",
    "timestamp = 2 google.protobuf.Timestamp",
    "format = 3 string",
  ],
  Metric: [
    "name = 1 string",
    "help = 2 string",
    "type = 3 costplugin.v1.MetricType",
    "samples = 4 repeated costplugin.v1.MetricSample",
  ],
  MetricSample: [
    "labels = 1 map<string, string>",
    "value = 2 double",
    "timestamp = 3 google.protobuf.Timestamp",
  ],
  TimeRange: ["start = 1 google.protobuf.Timestamp", "end = 2 google.protobuf.Timestamp"],
  GetServiceLevelIndicatorsRequest: [
    "time_range = 1 costplugin.v1.TimeRange",
    "sli_names = 2 repeated string",
  ],
  GetServiceLevelIndicatorsResponse: [
    "slis = 1 repeated costplugin.v1.ServiceLevelIndicator",
    "measurement_time = 2 google.protobuf.Timestamp",
  ],
  ServiceLevelIndicator: [
    "name = 1 string",
    "description = 2 string",
    "value = 3 double",
    "unit = 4 string",
    "target_value = 5 double",
    "status = 6 costplugin.v1.SLIStatus",
  ],
};

const specifiedEnums: Record<string, string[]> = {
  ErrorCode: [
    "ERROR_CODE_UNSPECIFIED = 0",
    "ERROR_CODE_NETWORK_TIMEOUT = 1",
    "ERROR_CODE_SERVICE_UNAVAILABLE = 2",
    "ERROR_CODE_RATE_LIMITED = 3",
    "ERROR_CODE_TEMPORARY_FAILURE = 4",
    "ERROR_CODE_CIRCUIT_OPEN = 5",
    "ERROR_CODE_INVALID_RESOURCE = 6",
    "ERROR_CODE_RESOURCE_NOT_FOUND = 7",
    "ERROR_CODE_INVALID_TIME_RANGE = 8",
    "ERROR_CODE_UNSUPPORTED_REGION = 9",
    "ERROR_CODE_PERMISSION_DENIED = 10",
    "ERROR_CODE_DATA_CORRUPTION = 11",
    "ERROR_CODE_INVALID_CREDENTIALS = 12",
    "ERROR_CODE_MISSING_API_KEY = 13",
    "ERROR_CODE_INVALID_ENDPOINT = 14",
    "ERROR_CODE_INVALID_PROVIDER = 15",
    "ERROR_CODE_PLUGIN_NOT_CONFIGURED = 16",
  ],
  ErrorCategory: [
    "ERROR_CATEGORY_UNSPECIFIED = 0",
    "ERROR_CATEGORY_TRANSIENT = 1",
    "ERROR_CATEGORY_PERMANENT = 2",
    "ERROR_CATEGORY_CONFIGURATION = 3",
  ],
  "HealthCheckResponse.Status": [
    "STATUS_UNSPECIFIED = 0",
    "STATUS_SERVING = 1",
    "STATUS_NOT_SERVING = 2",
    "STATUS_SERVICE_UNKNOWN = 3",
  ],
  MetricType: [
    "METRIC_TYPE_UNSPECIFIED = 0",
    "METRIC_TYPE_COUNTER = 1",
    "METRIC_TYPE_GAUGE = 2",
    "METRIC_TYPE_HISTOGRAM = 3",
    "METRIC_TYPE_SUMMARY = 4",
  ],
  SLIStatus: [
    "SLI_STATUS_UNSPECIFIED = 0",
    "SLI_STATUS_MEETING_TARGET = 1",
    "SLI_STATUS_WARNING = 2",
    "SLI_STATUS_CRITICAL = 3",
  ],
};

const specifiedMethods: Record<string, string[]> = {
  "costplugin.v1.CostSourceService": [
    "Name(NameRequest) NameResponse",
    "Supports(SupportsRequest) SupportsResponse",
    "GetActualCost(GetActualCostRequest) GetActualCostResponse",
    "GetProjectedCost(GetProjectedCostRequest) GetProjectedCostResponse",
    "GetPricingSpec(GetPricingSpecRequest) GetPricingSpecResponse",
  ],
  "costplugin.v1.ObservabilityService": [
    "HealthCheck(HealthCheckRequest) HealthCheckResponse",
    "GetMetrics(GetMetricsRequest) GetMetricsResponse",
    "GetServiceLevelIndicators(GetServiceLevelIndicatorsRequest) GetServiceLevelIndicatorsResponse",
  ],
};

const files = [
  file_costplugin_v1_resource,
  file_costplugin_v1_costsource,
  file_costplugin_v1_errors,
  file_costplugin_v1_observability,
];

function allMessages(): DescMessage[] {
  const nested = (message: DescMessage): DescMessage[] => [
    message,
    ...message.nestedMessages.flatMap(nested),
  ];
  return files.flatMap((file) => file.messages.flatMap(nested));
}

function allEnums(): DescEnum[] {
  return [
    ...files.flatMap((file) => file.enums),
    ...allMessages().flatMap((message) => message.nestedEnums),
  ];
}

function scalarName(scalar: ScalarType): string {
  return ScalarType[scalar].toLowerCase();
}

/** A field as `name = number type`, the type written the way a .proto file writes it. */
function fieldLine(field: DescField): string {
  const head = `${field.name} = ${field.number}`;
  switch (field.fieldKind) {
    case "scalar":
      return `${head} ${field.proto.proto3Optional ? "optional " : ""}${scalarName(field.scalar)}`;
    case "enum":
      return `${head} ${field.enum.typeName}`;
    case "message":
      return `${head} ${field.message.typeName}`;
    case "list": {
      const element =
        field.listKind === "scalar"
          ? scalarName(field.scalar)
          : field.listKind === "enum"
            ? field.enum.typeName
            : field.message.typeName;
      return `${head} repeated ${element}`;
    }
    case "map": {
      const value =
        field.mapKind === "scalar"
          ? scalarName(field.scalar)
          : field.mapKind === "enum"
            ? field.enum.typeName
            : field.message.typeName;
      return `${head} map<${scalarName(field.mapKey)}, ${value}>`;
    }
  }
}

function methodLines(service: DescService): string[] {
  return service.methods.map(
    (method) => `${method.name}(${method.input.name}) ${method.output.name}`,
  );
}

describe("costplugin.v1 wire contract", () => {
  it("defines exactly the specified messages with their field names, numbers and types", () => {
    const actual = Object.fromEntries(
      allMessages().map((message) => [
        message.typeName.replace("costplugin.v1.", ""),
        message.fields.map(fieldLine),
      ]),
    );
    expect(actual).toEqual(specifiedMessages);
  });

  it("defines exactly the specified enums and values", () => {
    const actual = Object.fromEntries(
      allEnums().map((desc) => [
        desc.typeName.replace("costplugin.v1.", ""),
        desc.values.map((value) => `${value.name} = ${value.number}`),
      ]),
    );
    expect(actual).toEqual(specifiedEnums);
  });

  it("defines the specified RPCs, all unary and side-effect free so Connect GET works", () => {
    for (const service of [CostSourceService, ObservabilityService]) {
      expect(methodLines(service), service.typeName).toEqual(specifiedMethods[service.typeName]);
      for (const method of service.methods) {
        expect(method.methodKind, method.name).toBe("unary");
        expect(method.idempotency, method.name).toBe(1);
      }
    }
  });
});
