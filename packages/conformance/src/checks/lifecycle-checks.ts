import { fail, notApplicable, pass } from "../check-result.js";
import type { PluginCheck } from "../conformance-check.js";

const notStartedByKit = "the kit did not start the plugin (only with --exec)";

/** `lifecycle.port-line`. */
export const portLineCheck: PluginCheck = {
  id: "lifecycle.port-line",
  level: "basic",
  scope: "plugin",
  description:
    "Started without --port, the plugin prints one PORT=<n> line on stdout once it listens (within the start timeout).",
  async run(context) {
    if (context.plugin === undefined) return notApplicable(notStartedByKit);
    // A plugin that never printed the line never gets here: the runner reports that failure.
    return pass(`PORT=${context.plugin.port}`, {
      startupMs: Math.round(context.plugin.startupMs),
    });
  },
};

/** `lifecycle.sigterm-exit`. */
export const sigtermExitCheck: PluginCheck = {
  id: "lifecycle.sigterm-exit",
  level: "basic",
  scope: "plugin",
  description:
    "On SIGTERM the plugin exits, with code 0 or by the signal, within the shutdown timeout (10 s by default).",
  async run(context) {
    if (context.plugin === undefined) return notApplicable(notStartedByKit);
    const timeoutMs = context.options.timeouts.shutdownMs;
    const exit = await context.plugin.stop(timeoutMs);
    const expected = `exit with code 0 (or by SIGTERM) within ${timeoutMs} ms of SIGTERM`;
    const measurements = { shutdownMs: Math.round(exit.durationMs) };
    if (exit.endedEarly) {
      return fail(
        "the plugin to run until SIGTERM",
        `it had already ended (${exit.signal ?? `code ${exit.code}`}) during the checks`,
      );
    }
    if (!exit.exited) return fail(expected, "still running at the deadline: killed", measurements);
    if (exit.code === 0 || exit.signal === "SIGTERM") {
      return pass(exit.signal ? "ended by SIGTERM" : "exit code 0", measurements);
    }
    return fail(expected, `exited with ${exit.signal ?? `code ${exit.code}`}`, measurements);
  },
};

/** `lifecycle.stdout-clean`. */
export const stdoutCleanCheck: PluginCheck = {
  id: "lifecycle.stdout-clean",
  level: "standard",
  scope: "plugin",
  description:
    "The PORT=<n> line is the only thing the plugin writes to stdout; logs go to stderr.",
  async run(context) {
    if (context.plugin === undefined) return notApplicable(notStartedByKit);
    const extra = context.plugin.extraStdout;
    if (extra.length === 0) return pass();
    return fail(
      "only the PORT=<n> line on stdout",
      `${extra.length} more lines, first: ${JSON.stringify(extra[0]?.slice(0, 200))}`,
    );
  },
};
