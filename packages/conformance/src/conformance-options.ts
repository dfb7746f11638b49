import { performance } from "node:perf_hooks";
import type { CheckResult } from "./check-result.js";
import { splitCommandLine } from "./command-line.js";
import { ConformanceOptionsError } from "./conformance-options-error.js";
import type { ActualCostFixture, ConformanceFixtures, ResourceFixture } from "./fixtures.js";
import { dateFromText, resourceFixtureFromString, validateActualCostFixture } from "./fixtures.js";
import { loadFixturesFile } from "./fixtures-file.js";
import type { ConformanceLevel } from "./levels.js";
import { conformanceLevels } from "./levels.js";
import type { ConformanceProtocol } from "./protocols.js";
import { conformanceProtocols, isConformanceProtocol } from "./protocols.js";

/** An actual-cost fixture as callers write it: dates as `Date` or ISO 8601 strings. */
export interface ActualCostFixtureInput {
  /** The plugin-specific resource id. */
  readonly resourceId: string;
  /** Start of the range (inclusive). */
  readonly start: Date | string;
  /** End of the range (exclusive). */
  readonly end: Date | string;
  /** Optional tag filters. */
  readonly tags?: Readonly<Record<string, string>>;
}

/** Time limits of a run, in milliseconds. */
export interface ConformanceTimeouts {
  /** Deadline of every RPC the checks make. Default 10 000 (a host's Supports deadline). */
  readonly callMs?: number;
  /** Deadline of the raw probe that detects whether a protocol is spoken. Default 5 000. */
  readonly probeMs?: number;
  /** With `exec`: how long to wait for the `PORT=<n>` line. Default 15 000. */
  readonly startMs?: number;
  /** With `exec`: how long the plugin may take to exit after SIGTERM. Default 10 000. */
  readonly shutdownMs?: number;
}

/** Sizes of the performance checks. Smaller counts make faster, noisier runs (tests). */
export interface ConformancePerformanceOptions {
  /** Calls averaged by each latency check, after one warm-up call. Default 10. */
  readonly calls?: number;
  /** Concurrent callers of `performance.concurrent-callers-standard`. Default 10. */
  readonly standardConcurrency?: number;
  /** Concurrent callers of `performance.concurrent-callers-advanced`. Default 50. */
  readonly advancedConcurrency?: number;
  /** Calls each concurrent caller makes in sequence. Default 5. */
  readonly callsPerCaller?: number;
}

/** Options of `runConformance`. Give exactly one of `url` and `exec`. */
export interface ConformanceOptions {
  /** Base URL of a running plugin, e.g. `http://127.0.0.1:50051` (`https:` for TLS). */
  readonly url?: string;
  /**
   * A plugin command to start under the host contract: the kit reads `PORT=<n>` from its
   * stdout, checks `http://127.0.0.1:<n>`, then stops it with SIGTERM and checks it exits.
   * A string is split like a shell would split words (no expansion); an array is used as is.
   */
  readonly exec?: string | readonly string[];
  /** With `exec`: working directory of the plugin. Default: the current one. */
  readonly cwd?: string;
  /** With `exec`: environment of the plugin. Default: the kit's own environment. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Which checks run. Default `standard`. */
  readonly level?: ConformanceLevel;
  /** Protocols to check. Default: all four. */
  readonly protocols?: readonly ConformanceProtocol[];
  /** Resources the plugin prices, as fixtures or `provider/type/sku/region[?tag=value]` strings. */
  readonly resources?: readonly (ResourceFixture | string)[];
  /** A YAML or JSON fixtures file (see `loadFixturesFile`); its resources add to `resources`. */
  readonly fixturesFile?: string;
  /** A resource with actual costs; overrides the one of the fixtures file. */
  readonly actualCost?: ActualCostFixtureInput;
  /** Only run checks whose id equals, or starts with `<entry>.`, one of these. Default: all. */
  readonly checks?: readonly string[];
  /**
   * HTTP version for gRPC-web and Connect. Default `1.1`, what browsers and most proxies use;
   * gRPC always uses HTTP/2.
   */
  readonly httpVersion?: "1.1" | "2";
  /** Time limits. */
  readonly timeouts?: ConformanceTimeouts;
  /** Sizes of the performance checks. */
  readonly performance?: ConformancePerformanceOptions;
  /**
   * Size of the message the oversized-message check sends, in bytes. Default 5 MiB: above the
   * 4 MiB most gRPC implementations (and the costplugin server) accept by default.
   */
  readonly oversizedMessageBytes?: number;
  /**
   * Clock of the latency checks, in milliseconds. Default `performance.now`. Tests pass a fake
   * clock to make latency verdicts deterministic.
   */
  readonly clock?: () => number;
  /** Called with each result as soon as it is known (progress output). */
  readonly onResult?: (result: CheckResult) => void;
}

/** Where the plugin under test is. */
export type ConformanceTarget =
  | { readonly kind: "url"; readonly url: string }
  | {
      readonly kind: "exec";
      readonly command: readonly string[];
      readonly cwd: string | undefined;
      readonly env: Readonly<Record<string, string | undefined>> | undefined;
    };

/** `ConformanceOptions` validated and with every default applied. */
export interface ResolvedConformanceOptions {
  readonly target: ConformanceTarget;
  readonly level: ConformanceLevel;
  readonly protocols: readonly ConformanceProtocol[];
  readonly fixtures: ConformanceFixtures;
  readonly checks: readonly string[] | undefined;
  readonly httpVersion: "1.1" | "2";
  readonly timeouts: Required<ConformanceTimeouts>;
  readonly performance: Required<ConformancePerformanceOptions>;
  readonly oversizedMessageBytes: number;
  readonly clock: () => number;
  readonly onResult: ((result: CheckResult) => void) | undefined;
}

/** Validates options and applies defaults; reads the fixtures file. */
export async function resolveConformanceOptions(
  options: ConformanceOptions,
): Promise<ResolvedConformanceOptions> {
  const fileFixtures = options.fixturesFile
    ? await loadFixturesFile(options.fixturesFile)
    : { resources: [] };
  const resources = [
    ...(options.resources ?? []).map((resource) =>
      typeof resource === "string" ? resourceFixtureFromString(resource) : resource,
    ),
    ...fileFixtures.resources,
  ];
  const actualCost = options.actualCost
    ? actualCostFromInput(options.actualCost)
    : fileFixtures.actualCost;
  const level = options.level ?? "standard";
  if (!conformanceLevels.includes(level)) {
    throw new ConformanceOptionsError(
      `level "${level}" is not one of ${conformanceLevels.join(", ")}`,
    );
  }
  const protocols = options.protocols ?? conformanceProtocols;
  for (const protocol of protocols) {
    if (!isConformanceProtocol(protocol)) {
      throw new ConformanceOptionsError(
        `protocol "${protocol}" is not one of ${conformanceProtocols.join(", ")}`,
      );
    }
  }
  if (protocols.length === 0) throw new ConformanceOptionsError("no protocol selected");
  const httpVersion = options.httpVersion ?? "1.1";
  if (httpVersion !== "1.1" && httpVersion !== "2") {
    throw new ConformanceOptionsError(`http version "${httpVersion}" is not 1.1 or 2`);
  }
  return {
    target: targetFromOptions(options),
    level,
    protocols: conformanceProtocols.filter((protocol) => protocols.includes(protocol)),
    fixtures: actualCost ? { resources, actualCost } : { resources },
    checks: options.checks && options.checks.length > 0 ? options.checks : undefined,
    httpVersion,
    timeouts: {
      callMs: positive(options.timeouts?.callMs, 10_000, "call timeout"),
      probeMs: positive(options.timeouts?.probeMs, 5_000, "probe timeout"),
      startMs: positive(options.timeouts?.startMs, 15_000, "start timeout"),
      shutdownMs: positive(options.timeouts?.shutdownMs, 10_000, "shutdown timeout"),
    },
    performance: {
      calls: positive(options.performance?.calls, 10, "performance calls"),
      standardConcurrency: positive(
        options.performance?.standardConcurrency,
        10,
        "standard concurrency",
      ),
      advancedConcurrency: positive(
        options.performance?.advancedConcurrency,
        50,
        "advanced concurrency",
      ),
      callsPerCaller: positive(options.performance?.callsPerCaller, 5, "calls per caller"),
    },
    oversizedMessageBytes: positive(
      options.oversizedMessageBytes,
      5 * 1024 * 1024,
      "oversized message size",
    ),
    clock: options.clock ?? (() => performance.now()),
    onResult: options.onResult,
  };
}

function targetFromOptions(options: ConformanceOptions): ConformanceTarget {
  if ((options.url === undefined) === (options.exec === undefined)) {
    throw new ConformanceOptionsError("give exactly one of a plugin URL and a plugin command");
  }
  if (options.url !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(options.url);
    } catch {
      throw new ConformanceOptionsError(`"${options.url}" is not a URL`);
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      throw new ConformanceOptionsError(`"${options.url}" must be an http: or https: URL`);
    }
    if (parsed.pathname !== "/" || parsed.search !== "") {
      throw new ConformanceOptionsError(
        `"${options.url}" must have no path: gRPC clients cannot call a plugin under a prefix`,
      );
    }
    return { kind: "url", url: parsed.origin };
  }
  const command =
    typeof options.exec === "string" ? splitCommandLine(options.exec) : [...(options.exec ?? [])];
  if (command.length === 0 || command[0] === "") {
    throw new ConformanceOptionsError("the plugin command is empty");
  }
  return { kind: "exec", command, cwd: options.cwd, env: options.env };
}

function actualCostFromInput(input: ActualCostFixtureInput): ActualCostFixture {
  if (input.resourceId.trim() === "") {
    throw new ConformanceOptionsError("the actual-cost resource id must not be empty");
  }
  const date = (value: Date | string, what: string) =>
    value instanceof Date ? value : dateFromText(value, what);
  return validateActualCostFixture({
    resourceId: input.resourceId,
    start: date(input.start, "actual-cost start"),
    end: date(input.end, "actual-cost end"),
    tags: input.tags ?? {},
  });
}

function positive(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) {
    throw new ConformanceOptionsError(`${what} must be a positive integer, got ${value}`);
  }
  return value;
}
