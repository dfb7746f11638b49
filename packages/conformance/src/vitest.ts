import type { CostSourcePlugin } from "@costplugin/sdk";
import type { RunningServer, ServerOptions } from "@costplugin/server";
import { afterAll, beforeAll, describe, it } from "vitest";
import type { CheckResult } from "./check-result.js";
import type { ConformanceOptions } from "./conformance-options.js";
import type { ConformanceReport } from "./conformance-report.js";
import { conformanceProtocols } from "./protocols.js";
import { planChecks, runConformance } from "./run-conformance.js";

/** Options of `describeConformance`: the run's options, and one way to reach the plugin. */
export interface ConformanceSuiteOptions
  extends Omit<ConformanceOptions, "url" | "exec" | "onResult"> {
  /** A running plugin's URL, or a function giving it (called in `beforeAll`, after your hooks). */
  readonly url?: string | (() => string | Promise<string>);
  /** A plugin command to start under the host contract (see `ConformanceOptions.exec`). */
  readonly exec?: string | readonly string[];
  /** A plugin object, served for the suite by `startServer` on 127.0.0.1 with an ephemeral port. */
  readonly plugin?: CostSourcePlugin;
  /** Server options used with `plugin` (logging is off unless given). */
  readonly server?: Omit<ServerOptions, "plugin">;
  /** Time allowed for the whole run in `beforeAll`, in milliseconds. Default 120 000. */
  readonly runTimeoutMs?: number;
}

/** The name of the Vitest test of a result: `<check id> [<protocol>]`, or the id alone. */
export function conformanceTestName(result: Pick<CheckResult, "id" | "protocol">): string {
  return result.protocol ? `${result.id} [${result.protocol}]` : result.id;
}

/**
 * Turns a result into a test outcome: returns for a pass, throws an Error with what was
 * expected and seen for a failure, and calls `skip` with the reason otherwise.
 */
export function assertConformanceResult(
  result: CheckResult | undefined,
  skip: (note: string) => void,
): void {
  if (result === undefined)
    throw new Error("the conformance run produced no result for this check");
  if (result.status === "pass") return;
  if (result.status === "fail") {
    throw new Error(
      `${result.description}\nexpected: ${result.expected ?? ""}\nactual:   ${result.actual ?? ""}`,
    );
  }
  skip(`${result.status === "skipped" ? "skipped" : "not applicable"}: ${result.reason ?? ""}`);
}

/**
 * Registers a Vitest `describe` block with one test per conformance check and protocol, so a
 * plugin's own test suite runs the same checks as `costplugin conformance`. The checks run once,
 * in `beforeAll`; each test then reports its result (skipped and not-applicable results are
 * skipped tests with the reason).
 *
 * ```ts
 * describeConformance("my plugin", { plugin: createMyPlugin(), resources: ["aws/ec2/t3.micro/us-east-1"] });
 * ```
 */
export function describeConformance(name: string, options: ConformanceSuiteOptions): void {
  const ways = [options.url, options.exec, options.plugin].filter((way) => way !== undefined);
  if (ways.length !== 1) {
    throw new Error("describeConformance needs exactly one of url, exec and plugin");
  }
  const { url, exec, plugin, server: serverOptions, runTimeoutMs, ...runOptions } = options;
  const plan = planChecks({
    level: runOptions.level ?? "standard",
    protocols: conformanceProtocols.filter(
      (protocol) => runOptions.protocols === undefined || runOptions.protocols.includes(protocol),
    ),
    checks: runOptions.checks && runOptions.checks.length > 0 ? runOptions.checks : undefined,
  });
  describe(name, () => {
    let report: ConformanceReport | undefined;
    let failure: unknown;
    let running: RunningServer | undefined;
    beforeAll(async () => {
      try {
        let target: Pick<ConformanceOptions, "url" | "exec">;
        if (plugin !== undefined) {
          const { startServer } = await import("@costplugin/server");
          running = await startServer({ logger: false, ...serverOptions, plugin });
          target = { url: running.url };
        } else if (exec !== undefined) {
          target = { exec };
        } else {
          target = { url: typeof url === "function" ? await url() : (url as string) };
        }
        report = await runConformance({ ...runOptions, ...target });
      } catch (error) {
        failure = error;
      }
    }, runTimeoutMs ?? 120_000);
    afterAll(async () => {
      await running?.close();
    });
    for (const planned of plan) {
      const key = { id: planned.check.id, protocol: planned.protocol };
      it(conformanceTestName(key), (context) => {
        if (failure !== undefined) throw failure;
        const result = report?.results.find(
          (candidate) => candidate.id === key.id && candidate.protocol === key.protocol,
        );
        assertConformanceResult(result, (note) => context.skip(note));
      });
    }
  });
}
