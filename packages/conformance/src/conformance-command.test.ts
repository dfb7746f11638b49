import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CommanderError } from "commander";
import { afterEach, describe, expect, it } from "vitest";
import { conformanceCommand } from "./conformance-command.js";
import type { ConformanceOptions } from "./conformance-options.js";
import type { ConformanceReport } from "./conformance-report.js";
import { faultyRoutes, fixtureResource } from "./testdata/faulty-plugin.js";
import { startRouteServer } from "./testdata/route-server.js";
import { sampleReport } from "./testdata/sample-report.js";

function harness(report: ConformanceReport = sampleReport, env: Record<string, string> = {}) {
  const output: string[] = [];
  const errors: string[] = [];
  const exitCodes: number[] = [];
  const calls: ConformanceOptions[] = [];
  const command = conformanceCommand({
    stdout: { write: (text: string) => output.push(text), isTTY: false },
    env,
    setExitCode: (code) => exitCodes.push(code),
    run: async (options) => {
      calls.push(options);
      return report;
    },
  })
    .exitOverride()
    .configureOutput({
      writeErr: (text) => errors.push(text),
      writeOut: (text) => output.push(text),
    });
  const parse = (...args: string[]) => command.parseAsync(args, { from: "user" });
  return { command, parse, output, errors, exitCodes, calls };
}

let directory: string | undefined;
afterEach(async () => {
  if (directory) await rm(directory, { recursive: true, force: true });
  directory = undefined;
});

describe("conformanceCommand", () => {
  it("passes every option to the run", async () => {
    const { parse, calls } = harness();
    await parse(
      "http://127.0.0.1:50051",
      "--level",
      "advanced",
      "--protocol",
      "grpc,connect-json",
      "--resource",
      "aws/ec2/t3.micro/us-east-1",
      "--resource",
      "aws/ebs/gp3/us-east-1?size_gb=100",
      "--actual-cost",
      "i-1",
      "--actual-cost-range",
      "2025-01-01T00:00:00Z/2025-01-02T00:00:00Z",
      "--check",
      "errors",
      "--http-version",
      "2",
      "--timeout",
      "3000",
      "--perf-calls",
      "3",
      "--oversized-bytes",
      "2048",
    );
    expect(calls[0]).toMatchObject({
      url: "http://127.0.0.1:50051",
      level: "advanced",
      protocols: ["grpc", "connect-json"],
      resources: ["aws/ec2/t3.micro/us-east-1", "aws/ebs/gp3/us-east-1?size_gb=100"],
      checks: ["errors"],
      httpVersion: "2",
      timeouts: { callMs: 3000 },
      performance: { calls: 3 },
      oversizedMessageBytes: 2048,
    });
    expect(calls[0]?.actualCost?.resourceId).toBe("i-1");
  });

  it("passes the plugin command of --exec and its timeouts", async () => {
    const { parse, calls } = harness();
    await parse(
      "--exec",
      "node plugin.js --verbose",
      "--start-timeout",
      "500",
      "--shutdown-timeout",
      "700",
    );
    expect(calls[0]).toMatchObject({
      exec: "node plugin.js --verbose",
      timeouts: { startMs: 500, shutdownMs: 700 },
    });
    expect(calls[0]?.url).toBeUndefined();
  });

  it("prints the text report and sets exit code 1 when a check failed", async () => {
    const { parse, output, exitCodes } = harness();
    await parse("http://127.0.0.1:50051");
    expect(output.join("")).toContain("FAILED: 3 passed, 1 failed");
    expect(exitCodes).toEqual([1]);
  });

  it("sets exit code 0 when every check passed", async () => {
    const { parse, exitCodes } = harness({ ...sampleReport, ok: true });
    await parse("http://127.0.0.1:50051");
    expect(exitCodes).toEqual([0]);
  });

  it("prints JSON with --format json and JUnit XML with --format junit", async () => {
    const json = harness();
    await json.parse("http://127.0.0.1:50051", "--format", "json");
    expect(JSON.parse(json.output.join(""))).toEqual(sampleReport);
    const junit = harness();
    await junit.parse("http://127.0.0.1:50051", "--format", "junit");
    expect(junit.output.join("")).toMatch(/^<\?xml/);
  });

  it("writes the report to --output and a summary line to stdout", async () => {
    directory = await mkdtemp(join(tmpdir(), "conformance-"));
    const file = join(directory, "report.xml");
    const { parse, output } = harness();
    await parse("http://127.0.0.1:50051", "--format", "junit", "--output", file);
    expect(await readFile(file, "utf8")).toMatch(/^<\?xml/);
    expect(output.join("")).toMatch(/^FAILED: .* report written to /);
  });

  it("colours the text report only for a TTY without NO_COLOR", async () => {
    const plain = harness(sampleReport, { FORCE_COLOR: "1", NO_COLOR: "1" });
    await plain.parse("http://127.0.0.1:50051");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ANSI escapes
    expect(plain.output.join("")).not.toMatch(/\u001b\[/);
    const forced = harness(sampleReport, { FORCE_COLOR: "1" });
    await forced.parse("http://127.0.0.1:50051");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ANSI escapes
    expect(forced.output.join("")).toMatch(/\u001b\[/);
  });

  it.each([
    [[], /give a plugin URL or --exec/],
    [["http://127.0.0.1:1", "--exec", "node x"], /give a plugin URL or --exec/],
    [["http://127.0.0.1:1", "--actual-cost-range", "2025-01-01/2025-01-02"], /needs --actual-cost/],
    [
      ["http://127.0.0.1:1", "--actual-cost", "i-1", "--actual-cost-range", "yesterday"],
      /must look like start\/end/,
    ],
  ])("refuses %j with exit code 2", async (args, message) => {
    const { parse, errors, calls } = harness();
    const error = await parse(...args).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CommanderError);
    expect((error as CommanderError).exitCode).toBe(2);
    expect(errors.join("")).toMatch(message);
    expect(calls).toEqual([]);
  });

  it.each([
    [["http://127.0.0.1:1", "--protocol", "grpc,http3"], /http3/],
    [["http://127.0.0.1:1", "--level", "extreme"], /extreme/],
    [["http://127.0.0.1:1", "--timeout", "-5"], /positive integer/],
    [["http://127.0.0.1:1", "--format", "yaml"], /yaml/],
  ])("refuses the invalid value in %j", async (args, message) => {
    const { parse, errors, calls } = harness();
    await expect(parse(...args)).rejects.toBeInstanceOf(CommanderError);
    expect(errors.join("")).toMatch(message);
    expect(calls).toEqual([]);
  });

  it("reports invalid options found by the run (a bad URL) as a usage error", async () => {
    const output: string[] = [];
    const errors: string[] = [];
    const command = conformanceCommand({
      stdout: { write: (text: string) => output.push(text) },
      setExitCode: () => {},
    })
      .exitOverride()
      .configureOutput({ writeErr: (text) => errors.push(text) });
    const error = await command
      .parseAsync(["ftp://example.test"], { from: "user" })
      .catch((caught: unknown) => caught);
    expect((error as CommanderError).exitCode).toBe(2);
    expect(errors.join("")).toMatch(/http: or https:/);
  });

  it("checks a real plugin end to end", async () => {
    const server = await startRouteServer(faultyRoutes("none"));
    try {
      const output: string[] = [];
      const exitCodes: number[] = [];
      await conformanceCommand({
        stdout: { write: (text: string) => output.push(text) },
        setExitCode: (code) => exitCodes.push(code),
      }).parseAsync(
        [server.url, "--level", "basic", "--resource", fixtureResource, "--format", "json"],
        {
          from: "user",
        },
      );
      const report = JSON.parse(output.join("")) as ConformanceReport;
      expect(report.ok).toBe(true);
      expect(report.summary.fail).toBe(0);
      expect(exitCodes).toEqual([0]);
    } finally {
      await server.close();
    }
  });
});
