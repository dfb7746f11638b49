import { fileURLToPath } from "node:url";
import { createListPricePlugin } from "@costplugin/plugin-list-price";
import { startServer } from "@costplugin/server";
import { describe, expect, it } from "vitest";
import type { CheckResult } from "./check-result.js";
import { failedCheckIds } from "./conformance-report.js";
import { planChecks, runConformance } from "./run-conformance.js";
import type { Fault } from "./testdata/faulty-plugin.js";
import { faultyRoutes, fixtureActualCost, fixtureResource } from "./testdata/faulty-plugin.js";
import { startGrpcOnlyPlugin } from "./testdata/grpc-only-plugin.mjs";
import { startRouteServer } from "./testdata/route-server.js";
import { fastOptions, steppingClock } from "./testdata/test-options.js";

const grpcOnlyScript = fileURLToPath(new URL("./testdata/grpc-only-plugin.mjs", import.meta.url));

async function checkFaultyPlugin(fault: Fault, options: { crashOnGarbage?: boolean } = {}) {
  const server = await startRouteServer(faultyRoutes(fault), options);
  try {
    return await runConformance({
      ...fastOptions,
      level: "standard",
      url: server.url,
      resources: [fixtureResource],
      actualCost: fixtureActualCost,
      clock: steppingClock(),
    });
  } finally {
    await server.close();
  }
}

describe("runConformance", () => {
  it("passes every check of every level against a plugin that follows the protocol", async () => {
    const server = await startRouteServer(faultyRoutes("none"));
    try {
      const report = await runConformance({
        ...fastOptions,
        url: server.url,
        resources: [fixtureResource],
        actualCost: fixtureActualCost,
        clock: steppingClock(),
      });
      expect(failedCheckIds(report)).toEqual([]);
      expect(report.ok).toBe(true);
      expect(report.protocols.every((probe) => probe.available)).toBe(true);
      expect(report.results.filter((result) => result.status === "skipped")).toEqual([]);
    } finally {
      await server.close();
    }
  });

  // Each run has its own server and port: the planted faults are checked side by side.
  it.concurrent.for<[Fault, string]>([
    ["wrong-error-carrier", "errors.detail-present"],
    ["wrong-category", "errors.detail-category-matches-code"],
    ["nan-costs", "projected-cost.finite-non-negative"],
    ["bad-currency", "projected-cost.currency-iso4217"],
    ["unknown-billing-mode", "pricing-spec.billing-mode-known"],
    ["supports-without-reason", "supports.unsupported-has-reason"],
    ["unordered-actual-cost", "actual-cost.ordered"],
    ["results-out-of-range", "actual-cost.within-range"],
    ["missing-health", "observability.health-check"],
  ])(
    "fails exactly the check meant for a plugin with fault %s",
    async ([fault, checkId], { expect }) => {
      const report = await checkFaultyPlugin(fault);
      expect(failedCheckIds(report)).toEqual([checkId]);
      expect(report.ok).toBe(false);
      const failures = report.results.filter((result) => result.status === "fail");
      expect(failures.map((result) => result.protocol).sort()).toEqual([
        "connect-binary",
        "connect-json",
        "grpc",
        "grpc-web",
      ]);
      expect(failures.every((result) => result.expected && result.actual)).toBe(true);
    },
  );

  it("fails only robustness.garbage-bytes for a plugin that dies on garbage", async () => {
    const report = await checkFaultyPlugin("none", { crashOnGarbage: true });
    expect(failedCheckIds(report)).toEqual(["robustness.garbage-bytes"]);
  });

  it("reports gRPC-web and Connect checks as not applicable for a plugin served by grpc-js alone", async () => {
    const plugin = await startGrpcOnlyPlugin();
    try {
      const report = await runConformance({
        ...fastOptions,
        level: "standard",
        url: plugin.url,
        resources: [fixtureResource],
        clock: steppingClock(),
      });
      expect(failedCheckIds(report)).toEqual([]);
      expect(report.protocols.map((probe) => [probe.protocol, probe.available])).toEqual([
        ["grpc", true],
        ["grpc-web", false],
        ["connect-json", false],
        ["connect-binary", false],
      ]);
      expect(report.protocols[1]?.detail).toContain("does not speak HTTP/1.1");
      const others = report.results.filter(
        (result) => result.protocol !== undefined && result.protocol !== "grpc",
      );
      expect(others.length).toBeGreaterThan(0);
      expect(others.every((result) => result.status === "not-applicable")).toBe(true);
      const grpc = (id: string) =>
        report.results.find((result) => result.id === id && result.protocol === "grpc");
      expect(grpc("name.non-empty")?.status).toBe("pass");
      expect(grpc("errors.detail-present")?.status).toBe("pass");
      expect(grpc("actual-cost.rejects-reversed-range")?.status).toBe("not-applicable");
    } finally {
      await plugin.close();
    }
  });

  it("passes against the reference list-price plugin served by the costplugin server", async () => {
    const server = await startServer({
      plugin: createListPricePlugin(),
      logger: false,
      readMaxBytes: 1024 * 1024,
      // The oversized HTTP/2 requests stay in flight on the server after the kit hung up,
      // so its graceful close waits this long for them.
      shutdownTimeoutMs: 500,
    });
    try {
      const report = await runConformance({
        ...fastOptions,
        url: server.url,
        resources: ["aws/ec2/t3.micro/us-east-1", "aws/ebs/gp3/us-east-1?size_gb=100"],
        clock: steppingClock(),
      });
      const failures = report.results.filter((result) => result.status === "fail");
      expect(failures).toEqual([]);
      expect(report.protocols.every((probe) => probe.available)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("fails transport.reachable, without throwing, when nothing listens at the address", async () => {
    const server = await startRouteServer(faultyRoutes("none"));
    await server.close();
    const report = await runConformance({ ...fastOptions, level: "basic", url: server.url });
    expect(failedCheckIds(report)).toEqual(["transport.grpc", "transport.reachable"]);
    expect(report.protocols.every((probe) => !probe.available)).toBe(true);
    expect(
      report.results
        .filter((result) => result.protocol)
        .every((result) => result.status === "not-applicable"),
    ).toBe(true);
  });

  it("fails a latency check whose average exceeds the bar and reports the figures", async () => {
    const server = await startRouteServer(faultyRoutes("none"));
    try {
      const report = await runConformance({
        ...fastOptions,
        level: "standard",
        url: server.url,
        protocols: ["connect-json"],
        checks: ["performance.name-latency"],
        clock: steppingClock(150),
      });
      const [result] = report.results;
      expect(result).toMatchObject({
        id: "performance.name-latency",
        status: "fail",
        measurements: { averageMs: 150, maxMs: 150, calls: 2, barMs: 100 },
      });
    } finally {
      await server.close();
    }
  });

  it("skips fixture checks with the reason when no fixture is given", async () => {
    const server = await startRouteServer(faultyRoutes("none"));
    try {
      const report = await runConformance({
        ...fastOptions,
        level: "basic",
        url: server.url,
        protocols: ["grpc"],
        checks: ["supports.fixture-supported", "actual-cost.ordered"],
      });
      expect(report.results.map((result) => [result.id, result.status])).toEqual([
        ["supports.fixture-supported", "skipped"],
        ["actual-cost.ordered", "skipped"],
      ]);
      expect(report.results[0]?.reason).toContain("--resource");
      expect(report.results[1]?.reason).toContain("--actual-cost");
    } finally {
      await server.close();
    }
  });

  it("hands every result to onResult as soon as it is known", async () => {
    const server = await startRouteServer(faultyRoutes("none"));
    try {
      const seen: CheckResult[] = [];
      const report = await runConformance({
        ...fastOptions,
        level: "basic",
        url: server.url,
        checks: ["name"],
        onResult: (result) => seen.push(result),
      });
      expect(seen).toEqual(report.results);
      expect(seen.map((result) => result.id)).toContain("name.consistent");
    } finally {
      await server.close();
    }
  });

  describe("with a plugin command", () => {
    const exec = (...flags: string[]) => [process.execPath, grpcOnlyScript, ...flags];

    it("starts the plugin, checks it and passes the lifecycle checks", async () => {
      const report = await runConformance({
        ...fastOptions,
        level: "standard",
        exec: exec(),
        protocols: ["grpc"],
        checks: ["name", "lifecycle"],
      });
      expect(report.results.map((result) => [result.id, result.status])).toEqual([
        ["name.non-empty", "pass"],
        ["name.consistent", "not-applicable"],
        ["lifecycle.port-line", "pass"],
        ["lifecycle.sigterm-exit", "pass"],
        ["lifecycle.stdout-clean", "pass"],
      ]);
      expect(report.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    });

    it("fails lifecycle.sigterm-exit for a plugin that ignores SIGTERM", async () => {
      const report = await runConformance({
        ...fastOptions,
        level: "basic",
        exec: exec("--ignore-sigterm"),
        protocols: ["grpc"],
        checks: ["lifecycle"],
        timeouts: { shutdownMs: 300 },
      });
      expect(failedCheckIds(report)).toEqual(["lifecycle.sigterm-exit"]);
      expect(
        report.results.find((result) => result.id === "lifecycle.sigterm-exit")?.actual,
      ).toContain("killed");
    });

    it("fails lifecycle.port-line and skips the rest for a plugin that never prints its port", async () => {
      const report = await runConformance({
        ...fastOptions,
        level: "basic",
        exec: exec("--no-port-line"),
        checks: ["name", "lifecycle"],
        timeouts: { startMs: 1500 },
      });
      expect(failedCheckIds(report)).toEqual(["lifecycle.port-line"]);
      expect(
        report.results.find((result) => result.id === "lifecycle.port-line")?.actual,
      ).toContain("no PORT=<n> line");
      expect(
        report.results
          .filter((result) => result.id !== "lifecycle.port-line")
          .every((result) => result.status === "skipped"),
      ).toBe(true);
    });

    it("fails lifecycle.stdout-clean for a plugin that logs to stdout", async () => {
      const report = await runConformance({
        ...fastOptions,
        level: "standard",
        exec: exec("--chatty-stdout"),
        protocols: ["grpc"],
        checks: ["lifecycle"],
      });
      expect(failedCheckIds(report)).toEqual(["lifecycle.stdout-clean"]);
    });

    it("fails lifecycle.port-line for a command that does not exist", async () => {
      const report = await runConformance({
        ...fastOptions,
        exec: "/nonexistent/costplugin-plugin --flag",
        checks: ["lifecycle.port-line"],
      });
      expect(report.results).toHaveLength(1);
      expect(report.results[0]).toMatchObject({ id: "lifecycle.port-line", status: "fail" });
      expect(report.results[0]?.actual).toContain("ENOENT");
    });
  });
});

describe("planChecks", () => {
  it("plans only the checks of the level and below, one per protocol for protocol checks", () => {
    const plan = planChecks({
      level: "basic",
      protocols: ["grpc", "connect-json"],
      checks: undefined,
    });
    expect(plan.every(({ check }) => check.level === "basic")).toBe(true);
    const names = plan.filter(({ check }) => check.id === "name.non-empty");
    expect(names.map(({ protocol }) => protocol)).toEqual(["grpc", "connect-json"]);
    expect(plan.filter(({ check }) => check.id === "name.consistent")).toHaveLength(1);
  });

  it("keeps only the named checks and groups", () => {
    const plan = planChecks({
      level: "advanced",
      protocols: ["grpc"],
      checks: ["errors", "name.non-empty"],
    });
    expect(plan.map(({ check }) => check.id)).toEqual([
      "name.non-empty",
      "errors.detail-present",
      "errors.detail-category-matches-code",
      "errors.status-matches-code",
    ]);
  });
});
