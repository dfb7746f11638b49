import { styleText } from "node:util";
import type { CheckResult, CheckStatus } from "./check-result.js";
import type { ConformanceReport } from "./conformance-report.js";

/** Options of `formatTextReport`. */
export interface TextReportOptions {
  /** ANSI colours. Default false; the CLI turns them on for a TTY unless NO_COLOR is set. */
  readonly color?: boolean;
}

const labels: Readonly<Record<CheckStatus, string>> = {
  pass: "pass",
  fail: "FAIL",
  skipped: "skip",
  "not-applicable": "n/a",
};

/**
 * The report as text for people: the protocols the plugin speaks, a grid of checks by
 * protocol, then every failure with what was expected and seen, the reasons for skipped and
 * not-applicable results, the measured figures, and a summary line.
 */
export function formatTextReport(
  report: ConformanceReport,
  options: TextReportOptions = {},
): string {
  const paint = (format: Parameters<typeof styleText>[0], value: string) =>
    options.color ? styleText(format, value) : value;
  const status = (value: CheckStatus, width = 0) => {
    const label = labels[value].padEnd(width);
    if (value === "pass") return paint("green", label);
    if (value === "fail") return paint(["red", "bold"], label);
    if (value === "skipped") return paint("yellow", label);
    return paint("dim", label);
  };
  const lines: string[] = [];
  lines.push(paint("bold", `costplugin conformance: ${report.target} (level ${report.level})`));
  if (report.url && report.url !== report.target) lines.push(`checked at ${report.url}`);
  for (const probe of report.protocols) {
    lines.push(
      `  ${probe.protocol.padEnd(15)} ${probe.available ? paint("green", "spoken") : paint("dim", "not spoken")}  ${paint("dim", probe.detail)}`,
    );
  }
  lines.push("");

  const protocols = report.protocols.map((probe) => probe.protocol);
  const ids = [...new Set(report.results.map((result) => result.id))];
  const idWidth = Math.max(5, ...ids.map((id) => id.length)) + 2;
  const columnWidth = Math.max(6, ...protocols.map((protocol) => protocol.length)) + 2;
  lines.push(
    paint(
      "bold",
      `${"check".padEnd(idWidth)}${protocols.map((p) => p.padEnd(columnWidth)).join("")}`,
    ),
  );
  for (const id of ids) {
    const results = report.results.filter((result) => result.id === id);
    const whole = results.find((result) => result.protocol === undefined);
    const cells = whole
      ? `${status(whole.status)} ${paint("dim", "(whole plugin)")}`
      : protocols
          .map((protocol) => {
            const result = results.find((candidate) => candidate.protocol === protocol);
            return result ? status(result.status, columnWidth) : "".padEnd(columnWidth);
          })
          .join("");
    lines.push(`${id.padEnd(idWidth)}${cells}`.trimEnd());
  }

  const failures = report.results.filter((result) => result.status === "fail");
  if (failures.length > 0) {
    lines.push("", paint(["red", "bold"], "Failures"));
    for (const result of failures) {
      lines.push(`  ${paint("bold", where(result))}  ${result.description}`);
      lines.push(`    expected: ${result.expected ?? ""}`);
      lines.push(`    actual:   ${result.actual ?? ""}`);
    }
  }
  for (const [title, wanted] of [
    ["Skipped", "skipped"],
    ["Not applicable", "not-applicable"],
  ] as const) {
    const byReason = new Map<string, string[]>();
    for (const result of report.results.filter((candidate) => candidate.status === wanted)) {
      const reason = result.reason ?? "";
      byReason.set(reason, [...(byReason.get(reason) ?? []), where(result)]);
    }
    if (byReason.size === 0) continue;
    lines.push("", paint("bold", title));
    for (const [reason, places] of byReason) {
      const shown =
        places.length > 6 ? [...places.slice(0, 6), `${places.length - 6} more`] : places;
      lines.push(`  ${reason}`, `    ${paint("dim", shown.join(", "))}`);
    }
  }
  const measured = report.results.filter((result) => result.measurements);
  if (measured.length > 0) {
    lines.push("", paint("bold", "Measurements"));
    for (const result of measured) {
      const figures = Object.entries(result.measurements ?? {})
        .map(([name, value]) => `${name} ${value}`)
        .join(", ");
      lines.push(`  ${where(result).padEnd(idWidth + 18)} ${status(result.status)}  ${figures}`);
    }
  }
  const { summary } = report;
  lines.push(
    "",
    `${report.ok ? paint(["green", "bold"], "PASSED") : paint(["red", "bold"], "FAILED")}: ${summary.pass} passed, ${summary.fail} failed, ${summary.skipped} skipped, ${summary.notApplicable} not applicable (${(report.durationMs / 1000).toFixed(1)} s)`,
  );
  return `${lines.join("\n")}\n`;
}

function where(result: CheckResult): string {
  return result.protocol ? `${result.id} [${result.protocol}]` : result.id;
}
