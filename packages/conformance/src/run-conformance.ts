import { conformanceChecks } from "./check-catalog.js";
import type { CheckResult, CheckVerdict } from "./check-result.js";
import { fail, notApplicable, skip } from "./check-result.js";
import type { ConformanceCheck, ProtocolProbe, RunContext } from "./conformance-check.js";
import type { ConformanceOptions, ResolvedConformanceOptions } from "./conformance-options.js";
import { resolveConformanceOptions } from "./conformance-options.js";
import type { ConformanceReport } from "./conformance-report.js";
import { summarizeResults } from "./conformance-report.js";
import { levelIncludes } from "./levels.js";
import type { PluginProcess } from "./plugin-process.js";
import { startPluginProcess } from "./plugin-process.js";
import { probeProtocols } from "./probe-protocols.js";
import type { ProtocolSession } from "./protocol-session.js";
import { createProtocolSession } from "./protocol-session.js";
import type { ConformanceProtocol } from "./protocols.js";

/** One planned result: a check, and the protocol for per-protocol checks. */
export interface PlannedCheck {
  readonly check: ConformanceCheck;
  readonly protocol?: ConformanceProtocol;
}

/** The results a run with these options produces, in order (before anything runs). */
export function planChecks(
  options: Pick<ResolvedConformanceOptions, "level" | "protocols" | "checks">,
): PlannedCheck[] {
  const selected = (id: string) =>
    options.checks === undefined ||
    options.checks.some((entry) => id === entry || id.startsWith(`${entry}.`));
  return conformanceChecks
    .filter((check) => levelIncludes(options.level, check.level) && selected(check.id))
    .flatMap((check): PlannedCheck[] =>
      check.scope === "plugin"
        ? [{ check }]
        : options.protocols.map((protocol) => ({ check, protocol })),
    );
}

/**
 * Runs the conformance checks against a plugin and returns the report; never throws for a
 * misbehaving plugin (that is what the report is for), only for invalid options
 * (`ConformanceOptionsError`).
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const resolved = await resolveConformanceOptions(options);
  const startedAt = new Date();
  const startedMs = performance.now();
  const plan = planChecks(resolved);
  const results: CheckResult[] = [];
  const record = (planned: PlannedCheck, verdict: CheckVerdict, durationMs: number) => {
    const { id, level, description } = planned.check;
    const result: CheckResult = {
      id,
      level,
      description,
      ...(planned.protocol ? { protocol: planned.protocol } : {}),
      ...verdict,
      durationMs: Math.round(durationMs * 100) / 100,
    };
    results.push(result);
    resolved.onResult?.(result);
  };
  const target =
    resolved.target.kind === "url" ? resolved.target.url : resolved.target.command.join(" ");
  let probes: ProtocolProbe[] = [];
  let baseUrl: string | undefined;
  let plugin: PluginProcess | undefined;
  const sessions = new Map<ConformanceProtocol, ProtocolSession>();
  const report = (): ConformanceReport => ({
    target,
    ...(baseUrl ? { url: baseUrl } : {}),
    level: resolved.level,
    protocols: probes,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - startedMs),
    results,
    summary: summarizeResults(results),
    ok: results.every((result) => result.status !== "fail"),
  });
  try {
    if (resolved.target.kind === "exec") {
      const start = await startPluginProcess({
        command: resolved.target.command,
        ...(resolved.target.cwd ? { cwd: resolved.target.cwd } : {}),
        ...(resolved.target.env ? { env: resolved.target.env } : {}),
        startTimeoutMs: resolved.timeouts.startMs,
      });
      if (!start.ok) {
        const portLine = conformanceChecks.find((check) => check.id === "lifecycle.port-line");
        if (portLine)
          record({ check: portLine }, fail("a PORT=<n> line on stdout", start.reason), 0);
        for (const planned of plan) {
          if (planned.check !== portLine) {
            record(planned, skip("the plugin did not start (see lifecycle.port-line)"), 0);
          }
        }
        return report();
      }
      plugin = start.process;
      baseUrl = plugin.url;
    } else {
      baseUrl = resolved.target.url;
    }
    probes = await probeProtocols({
      baseUrl,
      protocols: resolved.protocols,
      httpVersion: resolved.httpVersion,
      timeoutMs: resolved.timeouts.probeMs,
    });
    for (const probe of probes) {
      if (!probe.available) continue;
      sessions.set(
        probe.protocol,
        createProtocolSession({
          baseUrl,
          protocol: probe.protocol,
          httpVersion: resolved.httpVersion,
          callTimeoutMs: resolved.timeouts.callMs,
        }),
      );
    }
    const context: RunContext = { options: resolved, baseUrl, sessions, probes, plugin };
    for (const planned of plan) {
      const checkStartedMs = performance.now();
      const verdict = await runPlanned(planned, context);
      record(planned, verdict, performance.now() - checkStartedMs);
    }
  } finally {
    for (const session of sessions.values()) session.close();
    await plugin?.stop(resolved.timeouts.shutdownMs);
  }
  return report();
}

async function runPlanned(planned: PlannedCheck, context: RunContext): Promise<CheckVerdict> {
  const { check, protocol } = planned;
  try {
    if (check.scope === "plugin") return await check.run(context);
    if (protocol === undefined) return notApplicable("no protocol");
    if (check.protocols && !check.protocols.includes(protocol)) {
      return notApplicable(`applies to ${check.protocols.join(" and ")} only`);
    }
    const session = context.sessions.get(protocol);
    if (session === undefined) {
      const probe = context.probes.find((candidate) => candidate.protocol === protocol);
      return notApplicable(
        `the plugin does not speak ${protocol} (${probe?.detail ?? "not probed"})`,
      );
    }
    return await check.run(session, context);
  } catch (error) {
    return fail("the check to run to completion", `it threw: ${(error as Error).message}`);
  }
}
