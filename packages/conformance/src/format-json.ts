import type { ConformanceReport } from "./conformance-report.js";

/** The report as pretty-printed JSON (the `ConformanceReport` shape), ending with a newline. */
export function formatJsonReport(report: ConformanceReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
