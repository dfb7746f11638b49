import type { CheckResult } from "./check-result.js";
import type { ConformanceReport } from "./conformance-report.js";

/**
 * The report as JUnit XML for CI: one `<testsuite>` per protocol (and one named `plugin` for
 * whole-plugin checks), one `<testcase>` per check. Failures carry what was expected and seen;
 * skipped and not-applicable results are `<skipped>` with the reason; measurements go to
 * `<system-out>`.
 */
export function formatJunitReport(report: ConformanceReport): string {
  const groups = new Map<string, CheckResult[]>();
  for (const result of report.results) {
    const key = result.protocol ?? "plugin";
    groups.set(key, [...(groups.get(key) ?? []), result]);
  }
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="costplugin conformance" tests="${report.summary.total}" failures="${report.summary.fail}" errors="0" skipped="${report.summary.skipped + report.summary.notApplicable}" time="${seconds(report.durationMs)}">`,
  ];
  for (const [group, results] of groups) {
    const failures = results.filter((result) => result.status === "fail").length;
    const skipped = results.filter(
      (result) => result.status === "skipped" || result.status === "not-applicable",
    ).length;
    const time = results.reduce((sum, result) => sum + result.durationMs, 0);
    lines.push(
      `  <testsuite name="${attr(`conformance ${group}`)}" tests="${results.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(time)}" timestamp="${attr(report.startedAt.replace(/\.\d+Z$/, ""))}">`,
      "    <properties>",
      `      <property name="target" value="${attr(report.target)}"/>`,
      `      <property name="level" value="${attr(report.level)}"/>`,
    );
    const probe = report.protocols.find((candidate) => candidate.protocol === group);
    if (probe) {
      lines.push(
        `      <property name="probe" value="${attr(`${probe.available ? "spoken" : "not spoken"}: ${probe.detail}`)}"/>`,
      );
    }
    lines.push("    </properties>");
    for (const result of results) lines.push(...testcase(result, group, seconds));
    lines.push("  </testsuite>");
  }
  lines.push("</testsuites>");
  return `${lines.join("\n")}\n`;
}

function testcase(result: CheckResult, group: string, seconds: (ms: number) => string): string[] {
  const open = `    <testcase classname="${attr(`costplugin.conformance.${group}`)}" name="${attr(result.id)}" time="${seconds(result.durationMs)}"`;
  const body: string[] = [];
  if (result.status === "fail") {
    body.push(
      `      <failure message="${attr(`expected ${result.expected ?? "?"}`)}" type="conformance">${text(`expected: ${result.expected ?? ""}\nactual: ${result.actual ?? ""}\n${result.description}`)}</failure>`,
    );
  } else if (result.status === "skipped" || result.status === "not-applicable") {
    const prefix = result.status === "skipped" ? "skipped" : "not applicable";
    body.push(`      <skipped message="${attr(`${prefix}: ${result.reason ?? ""}`)}"/>`);
  }
  if (result.measurements) {
    const figures = Object.entries(result.measurements)
      .map(([name, value]) => `${name}=${value}`)
      .join(" ");
    body.push(`      <system-out>${text(figures)}</system-out>`);
  }
  return body.length === 0 ? [`${open}/>`] : [`${open}>`, ...body, "    </testcase>"];
}

// XML 1.0 forbids most control characters even when escaped: they are dropped.
function withoutInvalidXml(value: string): string {
  let kept = "";
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    const allowed =
      code === 0x09 ||
      code === 0x0a ||
      code === 0x0d ||
      (code >= 0x20 && code <= 0xd7ff) ||
      (code >= 0xe000 && code <= 0xfffd) ||
      code >= 0x10000;
    if (allowed) kept += char;
  }
  return kept;
}

function text(value: string): string {
  return withoutInvalidXml(value)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}

function attr(value: string): string {
  return text(value)
    .replace(/"/g, "&quot;")
    .replace(/\n/g, "&#10;")
    .replace(/\r/g, "&#13;")
    .replace(/\t/g, "&#9;");
}
