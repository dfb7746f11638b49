import { describe, expect, it } from "vitest";
import { formatJunitReport } from "./format-junit.js";
import { expectedJunitTotals, readJunit } from "./testdata/junit-shape.js";
import { sampleReport } from "./testdata/sample-report.js";

describe("formatJunitReport", () => {
  const xml = formatJunitReport(sampleReport);

  it("writes one testsuite per protocol and one for whole-plugin checks", () => {
    expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites /);
    expect(xml).toContain('<testsuites name="costplugin conformance" tests="6" failures="1"');
    expect(xml.match(/<testsuite /g)).toHaveLength(3);
    expect(xml).toContain('name="conformance grpc" tests="3" failures="0" errors="0" skipped="1"');
  });

  it("writes failures with expectation and observation, escaped and without control characters", () => {
    expect(xml).toContain(
      '<failure message="expected a non-empty name" type="conformance">expected: a non-empty name\nactual: got "" &amp; &lt;nothing&gt; \nName answers.</failure>',
    );
    expect(xml).not.toContain("\u0001");
  });

  it("writes skipped and not-applicable results as skipped with the reason", () => {
    expect(xml).toContain('<skipped message="skipped: no resource fixture"/>');
    expect(xml).toContain(
      '<skipped message="not applicable: the plugin does not speak connect-json"/>',
    );
  });

  it("puts measurements in system-out", () => {
    expect(xml).toContain("<system-out>averageMs=1.5 calls=10</system-out>");
  });

  it("writes well-formed XML whose declared counts match its test cases and the report", () => {
    const junit = readJunit(xml);
    expect(junit.totals).toEqual(expectedJunitTotals(sampleReport));
    expect(junit.suites.map((suite) => suite.name)).toEqual([
      "conformance plugin",
      "conformance grpc",
      "conformance connect-json",
    ]);
    for (const suite of junit.suites) expect(suite.declared).toEqual(suite.counted);
    expect(junit.cases).toEqual([
      "costplugin.conformance.plugin transport.reachable: pass",
      "costplugin.conformance.grpc name.non-empty: pass",
      "costplugin.conformance.grpc supports.fixture-supported: skipped",
      "costplugin.conformance.grpc performance.name-latency: pass",
      "costplugin.conformance.connect-json name.non-empty: failure",
      "costplugin.conformance.connect-json supports.fixture-supported: skipped",
    ]);
  });

  it("stays well-formed whatever characters a plugin puts in its answers", () => {
    const hostile =
      "]]><!-- \u0000\u0008\u000b\ud800 \"'&amp;<x y='1'>\u2028\ufffe\uffff \u{1f4b8}";
    const report = {
      ...sampleReport,
      target: hostile,
      results: sampleReport.results.map((result) => ({
        ...result,
        id: `${result.id}${hostile}`,
        description: hostile,
        ...(result.status === "fail" ? { expected: hostile, actual: hostile } : {}),
        ...(result.reason ? { reason: hostile } : {}),
      })),
    };
    expect(() => readJunit(formatJunitReport(report))).not.toThrow();
  });
});
