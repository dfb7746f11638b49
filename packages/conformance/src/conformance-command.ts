import { writeFile } from "node:fs/promises";
import { Command, InvalidArgumentError, Option } from "commander";
import type { ConformanceOptions } from "./conformance-options.js";
import { ConformanceOptionsError } from "./conformance-options-error.js";
import type { ConformanceReport } from "./conformance-report.js";
import { actualCostFixtureFromString } from "./fixtures.js";
import { formatJsonReport } from "./format-json.js";
import { formatJunitReport } from "./format-junit.js";
import { formatTextReport } from "./format-text.js";
import { conformanceLevels } from "./levels.js";
import type { ConformanceProtocol } from "./protocols.js";
import { conformanceProtocols, isConformanceProtocol } from "./protocols.js";
import { runConformance } from "./run-conformance.js";

/** Where the command writes and how it reports its exit code; the defaults use the process. */
export interface ConformanceCommandOptions {
  /** Receives the report. Default `process.stdout`. */
  readonly stdout?: { write(text: string): unknown; readonly isTTY?: boolean };
  /** Environment consulted for `NO_COLOR` / `FORCE_COLOR`. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Receives the exit code: 0 when every check passed, 1 otherwise. Default sets `process.exitCode`. */
  readonly setExitCode?: (code: number) => void;
  /** Runs the checks. Default `runConformance` (tests replace it). */
  readonly run?: (options: ConformanceOptions) => Promise<ConformanceReport>;
}

interface ParsedFlags {
  readonly exec?: string;
  readonly level: ConformanceOptions["level"];
  readonly protocol?: ConformanceProtocol[];
  readonly resource: string[];
  readonly fixtures?: string;
  readonly actualCost?: string;
  readonly actualCostRange?: string;
  readonly check: string[];
  readonly format: "text" | "json" | "junit";
  readonly output?: string;
  readonly httpVersion?: "1.1" | "2";
  readonly timeout?: number;
  readonly startTimeout?: number;
  readonly shutdownTimeout?: number;
  readonly perfCalls?: number;
  readonly oversizedBytes?: number;
  readonly color?: boolean;
}

/**
 * The `conformance` command: `costplugin conformance <url>` or
 * `costplugin conformance --exec "<plugin command>"`. Prints the report (text, JSON or JUnit
 * XML) and sets exit code 1 when a check failed, 2 for invalid usage.
 */
export function conformanceCommand(options: ConformanceCommandOptions = {}): Command {
  const stdout = options.stdout ?? process.stdout;
  const env = options.env ?? process.env;
  const setExitCode =
    options.setExitCode ??
    ((code: number) => {
      process.exitCode = code;
    });
  const run = options.run ?? runConformance;
  const command = new Command("conformance")
    .description(
      "Check a costplugin.v1 plugin, in any language, over gRPC, gRPC-web and Connect (JSON and binary).",
    )
    .argument("[url]", "base URL of a running plugin, e.g. http://127.0.0.1:50051")
    .option(
      "--exec <command>",
      "start the plugin with this command instead (reads PORT=<n> from its stdout, stops it with SIGTERM)",
    )
    .addOption(
      new Option("--level <level>", "which checks run")
        .choices(conformanceLevels)
        .default("standard"),
    )
    .addOption(
      new Option(
        "--protocol <protocols>",
        `comma-separated protocols to check (${conformanceProtocols.join(", ")}); default all`,
      ).argParser(parseProtocols),
    )
    .option(
      "--resource <provider/type/sku/region>",
      "a resource the plugin prices, optionally with ?tag=value (repeatable)",
      collect,
      [],
    )
    .option("--fixtures <file>", "YAML or JSON fixtures file (resources, actualCost)")
    .option("--actual-cost <resource-id>", "a resource with actual costs")
    .option(
      "--actual-cost-range <start/end>",
      "ISO 8601 interval for --actual-cost; default the last three whole UTC days",
    )
    .option("--check <id>", "only run this check or group, e.g. errors (repeatable)", collect, [])
    .addOption(
      new Option("--format <format>", "report format")
        .choices(["text", "json", "junit"])
        .default("text"),
    )
    .option("--output <file>", "write the report to a file instead of stdout")
    .addOption(
      new Option(
        "--http-version <version>",
        "HTTP version for gRPC-web and Connect (default 1.1)",
      ).choices(["1.1", "2"]),
    )
    .option("--timeout <ms>", "deadline of each call (default 10000)", parsePositive)
    .option(
      "--start-timeout <ms>",
      "with --exec: wait this long for PORT=<n> (default 15000)",
      parsePositive,
    )
    .option(
      "--shutdown-timeout <ms>",
      "with --exec: time allowed to exit after SIGTERM (default 10000)",
      parsePositive,
    )
    .option("--perf-calls <n>", "calls averaged by each latency check (default 10)", parsePositive)
    .option(
      "--oversized-bytes <n>",
      "size of the oversized message (default 5242880)",
      parsePositive,
    )
    .option("--no-color", "no ANSI colours in the text report")
    .action(async (url: string | undefined, flags: ParsedFlags) => {
      if ((url === undefined) === (flags.exec === undefined)) {
        command.error("error: give a plugin URL or --exec <command> (not both)", { exitCode: 2 });
      }
      let report: ConformanceReport;
      try {
        report = await run(optionsFromFlags(url, flags));
      } catch (error) {
        if (error instanceof ConformanceOptionsError) {
          command.error(`error: ${error.message}`, { exitCode: 2 });
        }
        throw error;
      }
      const color =
        flags.color !== false &&
        flags.output === undefined &&
        env.NO_COLOR === undefined &&
        (stdout.isTTY === true || (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0"));
      const text =
        flags.format === "json"
          ? formatJsonReport(report)
          : flags.format === "junit"
            ? formatJunitReport(report)
            : formatTextReport(report, { color });
      if (flags.output) {
        await writeFile(flags.output, text);
        const { summary } = report;
        stdout.write(
          `${report.ok ? "PASSED" : "FAILED"}: ${summary.pass} passed, ${summary.fail} failed, ${summary.skipped} skipped, ${summary.notApplicable} not applicable; report written to ${flags.output}\n`,
        );
      } else {
        stdout.write(text);
      }
      setExitCode(report.ok ? 0 : 1);
    });
  return command;
}

function optionsFromFlags(url: string | undefined, flags: ParsedFlags): ConformanceOptions {
  const timeouts = {
    ...(flags.timeout ? { callMs: flags.timeout } : {}),
    ...(flags.startTimeout ? { startMs: flags.startTimeout } : {}),
    ...(flags.shutdownTimeout ? { shutdownMs: flags.shutdownTimeout } : {}),
  };
  if (flags.actualCostRange !== undefined && flags.actualCost === undefined) {
    throw new ConformanceOptionsError("--actual-cost-range needs --actual-cost");
  }
  return {
    ...(url !== undefined ? { url } : {}),
    ...(flags.exec !== undefined ? { exec: flags.exec } : {}),
    level: flags.level,
    ...(flags.protocol ? { protocols: flags.protocol } : {}),
    resources: flags.resource,
    ...(flags.fixtures ? { fixturesFile: flags.fixtures } : {}),
    ...(flags.actualCost !== undefined
      ? { actualCost: actualCostFixtureFromString(flags.actualCost, flags.actualCostRange) }
      : {}),
    checks: flags.check,
    ...(flags.httpVersion ? { httpVersion: flags.httpVersion } : {}),
    timeouts,
    ...(flags.perfCalls ? { performance: { calls: flags.perfCalls } } : {}),
    ...(flags.oversizedBytes ? { oversizedMessageBytes: flags.oversizedBytes } : {}),
  };
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function parsePositive(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) {
    throw new InvalidArgumentError("must be a positive integer");
  }
  return parsed;
}

function parseProtocols(
  value: string,
  previous: ConformanceProtocol[] | undefined,
): ConformanceProtocol[] {
  const protocols = [...(previous ?? [])];
  for (const part of value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)) {
    if (!isConformanceProtocol(part)) {
      throw new InvalidArgumentError(`"${part}" is not one of ${conformanceProtocols.join(", ")}`);
    }
    if (!protocols.includes(part)) protocols.push(part);
  }
  return protocols;
}
