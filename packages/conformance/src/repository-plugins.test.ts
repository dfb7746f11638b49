import { fileURLToPath } from "node:url";
import type { BillingStore } from "@costplugin/plugin-billing";
import { createBillingPlugin } from "@costplugin/plugin-billing";
import type { VendorStandIn } from "@costplugin/plugin-billing/vendor-stand-in";
import {
  createCostDataset,
  createTestPuller,
  openMigratedStore,
  startVendorStandIn,
} from "@costplugin/plugin-billing/vendor-stand-in";
import type { RunningServer } from "@costplugin/server";
import { startServer } from "@costplugin/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckResult } from "./check-result.js";
import type { ConformanceReport } from "./conformance-report.js";
import { failedCheckIds } from "./conformance-report.js";
import { formatJunitReport } from "./format-junit.js";
import { formatTextReport } from "./format-text.js";
import { conformanceProtocols } from "./protocols.js";
import { runConformance } from "./run-conformance.js";
import { expectedJunitTotals, readJunit } from "./testdata/junit-shape.js";
import { steppingClock } from "./testdata/test-options.js";

// The kit against the plugins this repository ships, as their users run them. Latency verdicts
// use a stepping clock: the figures of a loaded CI machine say nothing about conformance.

const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));
const smallPerformance = { calls: 2, standardConcurrency: 3, callsPerCaller: 2 };

const statusesOf = (report: ConformanceReport, id: string) =>
  report.results
    .filter((result) => result.id === id)
    .map((result) => [result.protocol ?? "plugin", result.status]);
const everyProtocol = (status: CheckResult["status"]) =>
  conformanceProtocols.map((protocol) => [protocol, status]);

describe("runConformance against the billing-data plugin", () => {
  // The stand-in vendor's clock and the plugin's: the pull reads the 30 days up to this one.
  const now = () => new Date("2026-03-10T06:00:00Z");
  const source = "stand-in-costs";
  let vendor: VendorStandIn;
  let store: BillingStore;
  let server: RunningServer;
  let report: ConformanceReport;
  let resource: ReturnType<typeof createCostDataset>["resources"][number];

  beforeAll(async () => {
    vendor = await startVendorStandIn({
      dataset: createCostDataset({ resources: 12 }),
      now: () => now().getTime(),
    });
    store = await openMigratedStore(":memory:");
    const summary = await createTestPuller({ store, vendorUrl: vendor.url, source, now }).pull();
    expect(summary.rowsNew).toBe(12 * 30);
    const first = vendor.dataset.resources[0];
    if (first === undefined) throw new Error("the stand-in dataset has no resource");
    resource = first;
    server = await startServer({
      plugin: createBillingPlugin({ store, source, staleAfterMs: 48 * 3_600_000, now }),
      logger: false,
      shutdownTimeoutMs: 1000,
    });
    report = await runConformance({
      url: server.url,
      level: "standard",
      resources: [
        // The plugin prices by provider, service (as resource type) and region...
        {
          provider: resource.provider,
          resourceType: resource.service,
          sku: "",
          region: resource.region,
          tags: {},
        },
        // ...and narrows to one resource with a resource_id tag.
        {
          provider: resource.provider,
          resourceType: resource.service,
          sku: "",
          region: "",
          tags: { resource_id: resource.resourceId },
        },
      ],
      // Three whole UTC days, the plugin's buckets.
      actualCost: {
        resourceId: resource.resourceId,
        start: "2026-03-01T00:00:00Z",
        end: "2026-03-04T00:00:00Z",
      },
      performance: smallPerformance,
      timeouts: { callMs: 20_000, probeMs: 10_000 },
      clock: steppingClock(),
    });
  });

  afterAll(async () => {
    await server?.close();
    await store?.close();
    await vendor?.close();
  });

  it("passes every check, over every protocol", () => {
    expect(report.results.filter((result) => result.status === "fail")).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.protocols.every((probe) => probe.available)).toBe(true);
  });

  it("checks the actual costs the pull stored, on every protocol", () => {
    for (const id of [
      "actual-cost.answers",
      "actual-cost.ordered",
      "actual-cost.within-range",
      "actual-cost.finite",
      "actual-cost.rejects-reversed-range",
      "actual-cost.rejects-missing-resource",
      "performance.actual-cost-24h-latency",
    ]) {
      expect(statusesOf(report, id), id).toEqual(everyProtocol("pass"));
    }
  });

  it("checks the projection and the errors the plugin reports", () => {
    for (const id of [
      "supports.fixture-supported",
      "supports.unsupported-has-reason",
      "projected-cost.answers",
      "projected-cost.currency-iso4217",
      "projected-cost.finite-non-negative",
      "projected-cost.rejects-empty-resource",
      "errors.detail-present",
      "errors.detail-category-matches-code",
      "errors.status-matches-code",
      "observability.health-check",
    ]) {
      expect(statusesOf(report, id), id).toEqual(everyProtocol("pass"));
    }
  });

  it("reports GetPricingSpec, which billing data cannot answer, as not offered", () => {
    const pricing = report.results.filter(
      (result) =>
        result.id.startsWith("pricing-spec.") || result.id.endsWith("pricing-spec-latency"),
    );
    expect(pricing.length).toBe(6 * conformanceProtocols.length);
    for (const result of pricing) {
      expect(result.status).toBe("not-applicable");
      expect(result.reason).toBe("the plugin does not offer GetPricingSpec");
    }
  });

  it("writes a JUnit file a conformant XML parser reads back with the report's counts", () => {
    const junit = readJunit(formatJunitReport(report));
    expect(junit.totals).toEqual(expectedJunitTotals(report));
    for (const suite of junit.suites) expect(suite.declared).toEqual(suite.counted);
    expect(junit.cases).toContain("costplugin.conformance.grpc actual-cost.within-range: pass");
  });
});

describe("runConformance with the list-price plugin's entry point", () => {
  // Run from source exactly as a person would type it after --exec.
  const command = "node --conditions=source --import tsx packages/plugin-list-price/src/main.ts";
  let report: ConformanceReport;

  beforeAll(async () => {
    report = await runConformance({
      exec: command,
      cwd: repositoryRoot,
      env: { ...process.env, COSTPLUGIN_PLUGIN_PORT: undefined },
      level: "standard",
      resources: ["aws/ec2/t3.micro/us-east-1", "aws/ebs/gp3/us-east-1?size_gb=100"],
      performance: smallPerformance,
      // Compiling the sources at start-up takes seconds on a loaded machine.
      timeouts: { callMs: 20_000, probeMs: 10_000, startMs: 90_000, shutdownMs: 20_000 },
      clock: steppingClock(),
    });
  }, 180_000);

  it("passes the host contract: one PORT line on stdout, nothing else there, exit on SIGTERM", () => {
    expect(statusesOf(report, "lifecycle.port-line")).toEqual([["plugin", "pass"]]);
    expect(statusesOf(report, "lifecycle.stdout-clean")).toEqual([["plugin", "pass"]]);
    expect(statusesOf(report, "lifecycle.sigterm-exit")).toEqual([["plugin", "pass"]]);
    expect(report.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("passes every other check of the standard level too, the default 5 MiB message included", () => {
    expect(failedCheckIds(report)).toEqual([]);
    expect(statusesOf(report, "robustness.oversized-message")).toEqual(everyProtocol("pass"));
    expect(report.results.filter((result) => result.status === "skipped").map((r) => r.id)).toEqual(
      expect.arrayContaining(["actual-cost.answers"]),
    );
  });

  it("prints a report a person can read: the command, the address, the grid and the verdict", () => {
    const text = formatTextReport(report);
    const lines = text.split("\n");
    expect(lines[0]).toBe(`costplugin conformance: ${command} (level standard)`);
    expect(lines[1]).toBe(`checked at ${report.url}`);
    expect(text).toMatch(/^lifecycle\.sigterm-exit {2,}pass \(whole plugin\)$/m);
    expect(text).toMatch(/^name\.non-empty {2,}pass {2,}pass {2,}pass {2,}pass$/m);
    // The reasons are grouped: each skipped check is named once, with its protocols.
    expect(text.match(/actual-cost\.answers/g)).toHaveLength(2);
    expect(lines.every((line) => line === line.trimEnd())).toBe(true);
    expect(lines.every((line) => line.length <= 140)).toBe(true);
    expect(text).toMatch(
      /\nPASSED: \d+ passed, 0 failed, \d+ skipped, \d+ not applicable \(\d+\.\d s\)\n$/,
    );
  });

  it("writes a JUnit file a conformant XML parser reads back with the report's counts", () => {
    const junit = readJunit(formatJunitReport(report));
    expect(junit.totals).toEqual(expectedJunitTotals(report));
    expect(junit.suites.map((suite) => suite.name)).toEqual([
      "conformance plugin",
      "conformance grpc",
      "conformance grpc-web",
      "conformance connect-json",
      "conformance connect-binary",
    ]);
    for (const suite of junit.suites) expect(suite.declared).toEqual(suite.counted);
    expect(junit.cases).toContain("costplugin.conformance.plugin lifecycle.sigterm-exit: pass");
  });
});
