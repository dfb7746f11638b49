import { describe, expect, it } from "vitest";
import { formatTextReport } from "./format-text.js";
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
      /Skipped\n {2}no resource fixture\n {4}supports\.fixture-supported \[grpc\]/,
    );
    expect(text).toContain("the plugin does not speak connect-json");
    expect(text).toMatch(/performance\.name-latency \[grpc\].*averageMs 1\.5, calls 10/);
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
