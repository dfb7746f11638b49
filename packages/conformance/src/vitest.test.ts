import { createListPricePlugin } from "@costplugin/plugin-list-price";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckResult } from "./check-result.js";
import { faultyRoutes, fixtureResource } from "./testdata/faulty-plugin.js";
import type { RouteServer } from "./testdata/route-server.js";
import { startRouteServer } from "./testdata/route-server.js";
import { fastOptions, steppingClock } from "./testdata/test-options.js";
import { assertConformanceResult, conformanceTestName, describeConformance } from "./vitest.js";

// The helper in use: every check becomes a test of this file.
describeConformance("the list-price plugin", {
  ...fastOptions,
  level: "standard",
  plugin: createListPricePlugin(),
  server: { readMaxBytes: 1024 * 1024, shutdownTimeoutMs: 500 },
  resources: ["aws/ec2/t3.micro/us-east-1"],
  clock: steppingClock(),
});

let fixtureServer: RouteServer | undefined;
beforeAll(async () => {
  fixtureServer = await startRouteServer(faultyRoutes("none"));
});
afterAll(async () => {
  await fixtureServer?.close();
});

describeConformance("a plugin given by a URL known only at run time", {
  ...fastOptions,
  level: "basic",
  protocols: ["grpc", "connect-json"],
  url: () => fixtureServer?.url ?? "",
  resources: [fixtureResource],
  checks: ["name", "supports", "errors"],
});

const base: CheckResult = {
  id: "name.non-empty",
  level: "basic",
  description: "Name answers a non-empty display name.",
  protocol: "grpc",
  status: "pass",
  durationMs: 1,
};

describe("assertConformanceResult", () => {
  it("returns quietly for a pass", () => {
    expect(() => assertConformanceResult(base, () => {})).not.toThrow();
  });

  it("throws what was expected and what was seen for a failure", () => {
    const failed: CheckResult = {
      ...base,
      status: "fail",
      expected: "a non-empty name",
      actual: '""',
    };
    expect(() => assertConformanceResult(failed, () => {})).toThrow(
      /expected: a non-empty name\nactual: {3}""/,
    );
  });

  it("skips with the reason for skipped and not-applicable results", () => {
    const notes: string[] = [];
    assertConformanceResult({ ...base, status: "skipped", reason: "no fixture" }, (note) =>
      notes.push(note),
    );
    assertConformanceResult({ ...base, status: "not-applicable", reason: "gRPC only" }, (note) =>
      notes.push(note),
    );
    expect(notes).toEqual(["skipped: no fixture", "not applicable: gRPC only"]);
  });

  it("throws when the run produced no result for the check", () => {
    expect(() => assertConformanceResult(undefined, () => {})).toThrow(/no result/);
  });
});

describe("conformanceTestName", () => {
  it("names per-protocol results with the protocol and plugin results with the id alone", () => {
    expect(conformanceTestName({ id: "name.non-empty", protocol: "grpc" })).toBe(
      "name.non-empty [grpc]",
    );
    expect(conformanceTestName({ id: "name.consistent" })).toBe("name.consistent");
  });
});

describe("describeConformance", () => {
  it("refuses options naming no plugin or more than one", () => {
    expect(() => describeConformance("x", {})).toThrow(/exactly one/);
    expect(() => describeConformance("x", { url: "http://127.0.0.1:1", exec: "plugin" })).toThrow(
      /exactly one/,
    );
  });
});
