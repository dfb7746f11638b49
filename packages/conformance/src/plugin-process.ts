import type { ChildProcess } from "node:child_process";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** How a plugin process ended. */
export interface PluginExit {
  /** False when it was still running at the deadline and had to be killed. */
  readonly exited: boolean;
  /** Exit code, when it exited by itself. */
  readonly code: number | null;
  /** The signal that ended it, if any. */
  readonly signal: NodeJS.Signals | null;
  /** True when it had already ended before it was asked to stop. */
  readonly endedEarly: boolean;
  /** Time from SIGTERM to exit (or to the kill), in milliseconds. */
  readonly durationMs: number;
}

/** A plugin started under the host contract. */
export interface PluginProcess {
  /** The port from the `PORT=<n>` line. */
  readonly port: number;
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /** Time from spawning to the `PORT=<n>` line, in milliseconds. */
  readonly startupMs: number;
  /** Lines the plugin wrote to stdout besides the `PORT=<n>` line (logs belong on stderr). */
  readonly extraStdout: readonly string[];
  /**
   * Sends SIGTERM and waits up to `timeoutMs` for the exit; kills it with SIGKILL after that.
   * Calling it again returns the first result.
   */
  stop(timeoutMs: number): Promise<PluginExit>;
}

/** The outcome of starting a plugin: the running process, or why it did not start. */
export type PluginStart =
  | { readonly ok: true; readonly process: PluginProcess }
  | { readonly ok: false; readonly reason: string };

/** Options of `startPluginProcess`. */
export interface PluginProcessOptions {
  /** Program and arguments. */
  readonly command: readonly string[];
  /** Working directory; default the current one. */
  readonly cwd?: string;
  /** Environment; default the current process's. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** How long to wait for the `PORT=<n>` line. */
  readonly startTimeoutMs: number;
}

const portLine = /^PORT=(\d{1,5})\s*$/;
const stderrTailBytes = 4096;

/**
 * Starts a plugin the way a host does: no `--port`, so it reads `COSTPLUGIN_PLUGIN_PORT` or
 * takes an ephemeral port, and prints `PORT=<n>` on stdout once it listens. The process is
 * spawned directly (no shell), so signals reach the plugin itself.
 */
export function startPluginProcess(options: PluginProcessOptions): Promise<PluginStart> {
  const [program, ...args] = options.command;
  const startedAt = performance.now();
  const child = spawn(program ?? "", args, {
    cwd: options.cwd,
    env: options.env ? { ...options.env } : process.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderrTail = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-stderrTailBytes);
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const extraStdout: string[] = [];
  const withStderr = (reason: string) =>
    stderrTail.trim() === "" ? reason : `${reason}; stderr ended with: ${stderrTail.trim()}`;

  return new Promise<PluginStart>((resolve) => {
    let settled = false;
    const settle = (start: PluginStart) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(start);
    };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void killAndWait(child, exit).then(() =>
        settle({
          ok: false,
          reason: withStderr(`no PORT=<n> line on stdout within ${options.startTimeoutMs} ms`),
        }),
      );
    }, options.startTimeoutMs);
    child.once("error", (error) => settle({ ok: false, reason: `cannot start: ${error.message}` }));
    void exit.then(({ code, signal }) => {
      if (timedOut) return;
      settle({
        ok: false,
        reason: withStderr(`exited (${signal ?? `code ${code}`}) before printing a PORT=<n> line`),
      });
    });
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    let port: number | undefined;
    lines.on("line", (line) => {
      const match = port === undefined ? portLine.exec(line) : null;
      if (match) {
        port = Number(match[1]);
        const startupMs = performance.now() - startedAt;
        let stopping: Promise<PluginExit> | undefined;
        settle({
          ok: true,
          process: {
            port,
            url: `http://127.0.0.1:${port}`,
            startupMs,
            extraStdout,
            stop(timeoutMs) {
              stopping ??= stopProcess(child, exit, timeoutMs);
              return stopping;
            },
          },
        });
      } else {
        extraStdout.push(line);
      }
    });
  });
}

async function stopProcess(
  child: ChildProcess,
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>,
  timeoutMs: number,
): Promise<PluginExit> {
  const startedAt = performance.now();
  if (child.exitCode !== null || child.signalCode !== null) {
    const ended = await exit;
    return { exited: true, ...ended, endedEarly: true, durationMs: 0 };
  }
  child.kill("SIGTERM");
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  const ended = await Promise.race([exit, deadline]);
  clearTimeout(timer);
  const durationMs = performance.now() - startedAt;
  if (ended === "timeout") {
    await killAndWait(child, exit);
    return { exited: false, code: null, signal: null, endedEarly: false, durationMs };
  }
  return { exited: true, ...ended, endedEarly: false, durationMs };
}

async function killAndWait(child: ChildProcess, exit: Promise<unknown>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await exit;
}
