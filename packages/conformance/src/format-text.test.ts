import { describe, expect, it } from "vitest";
import { summarizeResults } from "./conformance-report.js";
import { formatTextReport } from "./format-text.js";
import type { ConformanceProtocol } from "./protocols.js";
import { sampleReport } from "./testdata/sample-report.js";

describe("formatTextReport", () => {
  it("shows a grid of checks by protocol", () => {
    const text = formatTextReport(sampleReport);
    expect(text).toMatch(/name\.non-empty\s+pass\s+FAIL/);
    expect(text).toMatch(/transport\.reachable\s+pass \(whole plugin\)/);
  });

  it("lists failures with what was expected and seen", () => {
    const text = formatTextReport(sampleReport);
    expect(text).toContain("name.non-empty [connect-json]");
    expect(text).toContain("expected: a non-empty name");
    expect(text).toContain('actual:   got "" & <nothing>');
  });

  it("gives the reasons of skipped and not-applicable results, and the measured figures", () => {
    const text = formatTextReport(sampleReport);
    expect(text).toMatch(
      /Skipped\n {2}no resource fixture\n {4}supports\.fixture-supported\n {6}on grpc\n/,
    );
    expect(text).toContain("the plugin does not speak connect-json");
    expect(text).toMatch(/performance\.name-latency \[grpc\].*averageMs 1\.5, calls 10/);
  });

  it("tells a finding shared by several protocols once, naming the protocols", () => {
    const failure = {
      id: "pricing-spec.answers",
      level: "basic",
      description: "GetPricingSpec answers.",
      status: "fail",
      expected: "an answer",
      actual: "unimplemented",
      durationMs: 1,
    } as const;
    const skipped = (id: string, protocol: ConformanceProtocol) =>
      ({
        id,
        level: "basic",
        description: "Skipped.",
        protocol,
        status: "skipped",
        reason: "no actual-cost fixture",
        durationMs: 0,
      }) as const;
    const results = [
      { ...failure, protocol: "grpc" },
      { ...failure, protocol: "connect-json" },
      { ...failure, protocol: "grpc-web", actual: "unavailable" },
      skipped("actual-cost.answers", "grpc"),
      skipped("actual-cost.answers", "connect-json"),
      skipped("actual-cost.ordered", "grpc"),
      skipped("actual-cost.ordered", "connect-json"),
    ] as const;
    const text = formatTextReport({ ...sampleReport, results, summary: summarizeResults(results) });
    expect(text).toContain(
      "pricing-spec.answers [grpc, connect-json]  GetPricingSpec answers.\n    expected: an answer\n    actual:   unimplemented\n",
    );
    expect(text).toContain("pricing-spec.answers [grpc-web]  GetPricingSpec answers.");
    expect(text.match(/actual: {3}unimplemented/g)).toHaveLength(1);
    expect(text).toContain(
      "  no actual-cost fixture\n    actual-cost.answers, actual-cost.ordered\n      on grpc, connect-json\n",
    );
  });

  it("puts each finding of a long list on its own line", () => {
    const findings = [
      "GetProjectedCost with an empty resource: invalid_argument: resource needed [no ErrorDetail]",
      "GetActualCost with end before start: invalid_argument: end must be after start [no ErrorDetail]",
    ];
    const results = [
      {
        id: "errors.detail-present",
        level: "basic",
        description: "Details.",
        protocol: "grpc",
        status: "fail",
        expected: "an ErrorDetail",
        actual: findings.join("; "),
        durationMs: 1,
      },
    ] as const;
    const text = formatTextReport({ ...sampleReport, results, summary: summarizeResults(results) });
    expect(text).toContain(`    actual:   ${findings[0]}\n              ${findings[1]}\n`);
  });

  it("shows control characters a plugin sent as escapes, never raw", () => {
    const results = [
      {
        id: "name.non-empty",
        level: "basic",
        description: "Name answers.",
        protocol: "grpc",
        status: "fail",
        expected: "a name",
        actual: "\u001b[2J\u001b]0;owned\u0007 line\nbreak",
        durationMs: 1,
      },
    ] as const;
    const text = formatTextReport({ ...sampleReport, results, summary: summarizeResults(results) });
    expect(text).toContain("actual:   \\x1b[2J\\x1b]0;owned\\x07 line\\nbreak");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for raw control characters
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
  });

  it("ends with the verdict and the counts", () => {
    expect(formatTextReport(sampleReport)).toMatch(
      /FAILED: 3 passed, 1 failed, 1 skipped, 1 not applicable \(1\.2 s\)\n$/,
    );
  });

  it("uses no escape codes unless asked to colour", () => {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ANSI escapes
    const ansi = /\u001b\[/;
    expect(formatTextReport(sampleReport)).not.toMatch(ansi);
    expect(formatTextReport(sampleReport, { color: true })).toMatch(ansi);
  });
});
