import { SLIStatus } from "@costplugin/proto";
import { describe, expect, it } from "vitest";
import { resolveSliTargets, sliStatus } from "./sli-targets.js";

describe("sliStatus", () => {
  it.each([
    [100, SLIStatus.SLI_STATUS_MEETING_TARGET],
    [99.9, SLIStatus.SLI_STATUS_MEETING_TARGET],
    [99.85, SLIStatus.SLI_STATUS_WARNING],
    [99.8, SLIStatus.SLI_STATUS_WARNING],
    [99.79, SLIStatus.SLI_STATUS_CRITICAL],
    [50, SLIStatus.SLI_STATUS_CRITICAL],
  ])("judges availability %d %% against 99.9 %% as %i", (value, status) => {
    expect(sliStatus(value, 99.9, "higher-is-better", 2)).toBe(status);
  });

  it.each([
    [0.5, SLIStatus.SLI_STATUS_MEETING_TARGET],
    [1, SLIStatus.SLI_STATUS_MEETING_TARGET],
    [1.5, SLIStatus.SLI_STATUS_WARNING],
    [2, SLIStatus.SLI_STATUS_WARNING],
    [2.5, SLIStatus.SLI_STATUS_CRITICAL],
  ])("judges a p95 of %d s against 1 s as %i", (value, status) => {
    expect(sliStatus(value, 1, "lower-is-better", 2)).toBe(status);
  });

  it("widens the warning band with a larger factor", () => {
    expect(sliStatus(2.5, 1, "lower-is-better", 3)).toBe(SLIStatus.SLI_STATUS_WARNING);
  });

  it("treats any miss as critical with a factor of 1", () => {
    expect(sliStatus(1.01, 1, "lower-is-better", 1)).toBe(SLIStatus.SLI_STATUS_CRITICAL);
  });
});

describe("resolveSliTargets", () => {
  it("fills the protocol's defaults in", () => {
    expect(resolveSliTargets({ latencyP99: 3 })).toEqual({
      availability: 99.9,
      errorRate: 0.1,
      latencyP95: 1,
      latencyP99: 3,
    });
  });
});
