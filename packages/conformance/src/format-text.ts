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
  lines.push(
    paint("bold", `costplugin conformance: ${printable(report.target)} (level ${report.level})`),
  );
  if (report.url && report.url !== report.target) lines.push(`checked at ${report.url}`);
  for (const probe of report.protocols) {
    lines.push(
      `  ${probe.protocol.padEnd(15)} ${probe.available ? paint("green", "spoken") : paint("dim", "not spoken")}  ${paint("dim", printable(probe.detail))}`,
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
      `${"check".padEnd(idWidth)}${protocols.map((p) => p.padEnd(columnWidth)).join("")}`.trimEnd(),
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

  // The same finding on several protocols is told once, naming the protocols.
  const failures = new Map<string, { first: CheckResult; protocols: string[] }>();
  for (const result of report.results.filter((candidate) => candidate.status === "fail")) {
    const key = JSON.stringify([result.id, result.expected, result.actual]);
    const group = failures.get(key) ?? { first: result, protocols: [] };
    if (result.protocol) group.protocols.push(result.protocol);
    failures.set(key, group);
  }
  if (failures.size > 0) {
    lines.push("", paint(["red", "bold"], "Failures"));
    for (const { first, protocols: failedOn } of failures.values()) {
      const place = failedOn.length > 0 ? `${first.id} [${failedOn.join(", ")}]` : first.id;
      lines.push(`  ${paint("bold", place)}  ${first.description}`);
      lines.push(`    expected: ${printable(first.expected ?? "")}`);
      // Checks list several findings separated by "; ": a long list reads better one per line.
      const actual = printable(first.actual ?? "");
      const parts = actual.length > 100 ? actual.split("; ") : [actual];
      lines.push(
        `    actual:   ${parts[0] ?? ""}`,
        ...parts.slice(1).map((part) => `              ${part}`),
      );
    }
  }
  for (const [title, wanted] of [
    ["Skipped", "skipped"],
    ["Not applicable", "not-applicable"],
  ] as const) {
    // reason -> protocols of a check -> the checks with that reason on exactly those protocols
    const byReason = new Map<string, Map<string, string[]>>();
    const protocolsOf = new Map<string, string[]>();
    for (const result of report.results.filter((candidate) => candidate.status === wanted)) {
      const key = JSON.stringify([result.reason ?? "", result.id]);
      protocolsOf.set(key, [
        ...(protocolsOf.get(key) ?? []),
        ...(result.protocol ? [result.protocol] : []),
      ]);
    }
    for (const [key, on] of protocolsOf) {
      const [reason, id] = JSON.parse(key) as [string, string];
      const bySet = byReason.get(reason) ?? new Map<string, string[]>();
      const set = on.join(", ");
      bySet.set(set, [...(bySet.get(set) ?? []), id]);
      byReason.set(reason, bySet);
    }
    if (byReason.size === 0) continue;
    lines.push("", paint("bold", title));
    for (const [reason, bySet] of byReason) {
      lines.push(`  ${printable(reason)}`);
      for (const [set, ids] of bySet) {
        for (const line of wrap(ids, 96)) lines.push(`    ${paint("dim", line)}`);
        if (set !== "") lines.push(`      ${paint("dim", `on ${set}`)}`);
      }
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

/** Words joined with ", " into lines of at most `width` characters (a longer word stands alone). */
function wrap(words: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    const next = line === "" ? word : `${line}, ${word}`;
    if (line !== "" && next.length > width) {
      lines.push(`${line},`);
      line = word;
    } else {
      line = next;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}

/**
 * Text a plugin chose (messages, reasons, names) with control characters shown as escapes: a
 * plugin must not be able to move the cursor, recolour or clear a person's terminal.
 */
function printable(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters being escaped
  return value.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => {
    if (char === "\n") return "\\n";
    if (char === "\t") return "\\t";
    return `\\x${(char.codePointAt(0) ?? 0).toString(16).padStart(2, "0")}`;
  });
}

function where(result: CheckResult): string {
  return result.protocol ? `${result.id} [${result.protocol}]` : result.id;
}
