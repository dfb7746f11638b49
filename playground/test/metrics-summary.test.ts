import { create } from "@bufbuild/protobuf";
import { MetricSchema, MetricType } from "@costplugin/proto";
import { describe, expect, it } from "vitest";
import { metricTotal, requestsByMethod } from "../src/metrics-summary.js";

const sample = (labels: Record<string, string>, value: number) => ({ labels, value });

describe("requestsByMethod", () => {
  it("sums a request counter by method and splits failures by code", () => {
    const metrics = [
      create(MetricSchema, {
        name: "process_resident_memory_bytes",
        type: MetricType.GAUGE,
        samples: [sample({}, 1e8)],
      }),
      create(MetricSchema, {
        name: "costplugin_rpc_requests_total",
        type: MetricType.COUNTER,
        samples: [
          sample({ method: "Supports", protocol: "connect", code: "ok" }, 3),
          sample({ method: "Supports", protocol: "grpc_web", code: "ok" }, 2),
          sample({ method: "Supports", protocol: "connect", code: "invalid_argument" }, 1),
          sample({ method: "GetProjectedCost", protocol: "connect", code: "ok" }, 9),
          sample({ method: "Name", protocol: "connect", code: "ok" }, Number.NaN),
        ],
      }),
    ];
    expect(requestsByMethod(metrics)).toEqual([
      { method: "GetProjectedCost", ok: 9, failed: 0 },
      { method: "Supports", ok: 5, failed: 1 },
    ]);
  });

  it("gives nothing when no counter carries a method label", () => {
    expect(
      requestsByMethod([
        create(MetricSchema, {
          name: "x_total",
          type: MetricType.COUNTER,
          samples: [sample({}, 4)],
        }),
      ]),
    ).toEqual([]);
  });
});

describe("metricTotal", () => {
  it("adds the finite sample values", () => {
    const metric = create(MetricSchema, {
      samples: [sample({}, 1.5), sample({}, Number.NaN), sample({}, 2)],
    });
    expect(metricTotal(metric)).toBe(3.5);
  });
});
