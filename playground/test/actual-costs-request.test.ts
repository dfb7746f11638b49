import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import {
  actualCostProbeRequest,
  actualCostRequestFromInput,
  probeResourceId,
  servesActualCosts,
} from "../src/actual-costs-request.js";

describe("actualCostRequestFromInput", () => {
  it("covers the first day from midnight to the last day's final millisecond in UTC", () => {
    const request = actualCostRequestFromInput({
      resourceId: "  i-123 ",
      startDate: "2025-03-01",
      endDate: "2025-03-03",
      tags: [
        ["env", "prod"],
        ["  ", "ignored"],
      ],
    });
    expect(request.resourceId).toBe("i-123");
    expect(request.start && timestampDate(request.start).toISOString()).toBe(
      "2025-03-01T00:00:00.000Z",
    );
    expect(request.end && timestampDate(request.end).toISOString()).toBe(
      "2025-03-03T23:59:59.999Z",
    );
    expect(request.tags).toEqual({ env: "prod" });
  });
});

describe("actualCostProbeRequest", () => {
  it("asks for the last day of a resource id nobody uses", () => {
    const request = actualCostProbeRequest(new Date("2025-03-10T12:00:00Z"));
    expect(request.resourceId).toBe(probeResourceId);
    expect(request.start && timestampDate(request.start).toISOString()).toBe(
      "2025-03-09T12:00:00.000Z",
    );
  });
});

describe("servesActualCosts", () => {
  it("is true for an answer or a complaint about the probe's resource", () => {
    expect(servesActualCosts({ ok: true })).toBe(true);
    expect(
      servesActualCosts({ ok: false, error: new ConnectError("no such", Code.NotFound) }),
    ).toBe(true);
    expect(
      servesActualCosts({ ok: false, error: new ConnectError("bad", Code.InvalidArgument) }),
    ).toBe(true);
  });

  it("is false when the method is missing, unconfigured or the plugin unreachable", () => {
    for (const code of [
      Code.Unimplemented,
      Code.FailedPrecondition,
      Code.Unavailable,
      Code.Internal,
    ]) {
      expect(servesActualCosts({ ok: false, error: new ConnectError("no", code) })).toBe(false);
    }
    expect(servesActualCosts({ ok: false, error: new TypeError("Failed to fetch") })).toBe(false);
  });
});
