import { describe, expect, it } from "vitest";
import { formatJunitReport } from "./format-junit.js";
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

  it("balances every element it opens", () => {
    const opened = (
      xml.match(/<(testsuites|testsuite|testcase|properties|failure|system-out)[ >]/g) ?? []
    ).length;
    const closed = (
      xml.match(/<\/(testsuites|testsuite|testcase|properties|failure|system-out)>/g) ?? []
    ).length;
    const selfClosed = (xml.match(/<testcase [^>]*\/>/g) ?? []).length;
    expect(opened).toBe(closed + selfClosed);
  });
});
