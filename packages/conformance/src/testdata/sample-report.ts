import type { CheckResult } from "../check-result.js";
import type { ConformanceReport } from "../conformance-report.js";
import { summarizeResults } from "../conformance-report.js";

const results: CheckResult[] = [
  { id: "transport.reachable", level: "basic", description: "Reachable.", status: "pass", durationMs: 1 },
  { id: "name.non-empty", level: "basic", description: "Name answers.", protocol: "grpc", status: "pass", durationMs: 2 },
  {
    id: "name.non-empty",
    level: "basic",
    description: "Name answers.",
    protocol: "connect-json",
    status: "fail",
    expected: "a non-empty name",
    actual: 'got "" & <nothing> \u0001',
    durationMs: 3,
  },
  {
    id: "supports.fixture-supported",
    level: "basic",
    description: "Supports fixtures.",
    protocol: "grpc",
    status: "skipped",
    reason: "no resource fixture",
    durationMs: 0,
  },
  {
    id: "supports.fixture-supported",
    level: "basic",
    description: "Supports fixtures.",
    protocol: "connect-json",
    status: "not-applicable",
    reason: "the plugin does not speak connect-json",
    durationMs: 0,
  },
  {
    id: "performance.name-latency",
    level: "standard",
    description: "Latency.",
    protocol: "grpc",
    status: "pass",
    measurements: { averageMs: 1.5, calls: 10 },
    durationMs: 20,
  },
];

/** A report with one result of every status, a measurement and characters XML must escape. */
export const sampleReport: ConformanceReport = {
  target: "http://127.0.0.1:50051",
  url: "http://127.0.0.1:50051",
  level: "standard",
  protocols: [
    { protocol: "grpc", available: true, detail: "grpc-status 0 (ok)" },
    { protocol: "connect-json", available: true, detail: "HTTP 200 (application/json)" },
  ],
  startedAt: "2025-01-01T00:00:00.000Z",
  durationMs: 1234,
  results,
  summary: summarizeResults(results),
  ok: false,
};
