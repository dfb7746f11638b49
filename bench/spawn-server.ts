import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** A benchmark peer running in its own process, pinned to one CPU. */
export interface SpawnedServer {
  /** Ports the server announced: `PORT` and, for split servers, `PORT_HTTP1`. */
  readonly ports: Readonly<Record<string, number>>;
  /** CPU time (user + system) the server process used so far, in milliseconds. */
  cpuMs(): number;
  stop(): Promise<void>;
}

/**
 * The command that starts a peer; printed in BENCHMARKS.md. Peers run the compiled JavaScript
 * (`tsc -b bench` builds them and every package they use into `dist/`), as a user runs the
 * server: a TypeScript loader would add its own per-call cost to every TypeScript peer and none
 * to the JavaScript ones.
 */
export function serverCommand(script: string, cpu: number, args: readonly string[] = []): string[] {
  return ["taskset", "-c", String(cpu), process.execPath, script, ...args];
}

/** Starts `bench/servers/<name>.ts` and waits for its `PORT=` lines. */
export async function spawnServer(
  name: string,
  cpu: number,
  portKeys: string[],
  args: readonly string[] = [],
): Promise<SpawnedServer> {
  const script = fileURLToPath(new URL(`./dist/servers/${name}.js`, import.meta.url));
  const [cmd, ...rest] = serverCommand(script, cpu, args);
  const child: ChildProcess = spawn(cmd as string, rest, { stdio: ["ignore", "pipe", "inherit"] });
  const ports: Record<string, number> = {};
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not announce its port in 30 s`)),
      30_000,
    );
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code} before listening`)));
    lines.on("line", (line) => {
      const m = /^(PORT\w*)=(\d+)$/.exec(line.trim());
      if (m) ports[m[1] as string] = Number(m[2]);
      if (portKeys.every((k) => k in ports)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  // `taskset` execs the server, so the child's pid is the server's.
  const statPath = `/proc/${child.pid}/stat`;
  const ticksPerSecond = 100;
  return {
    ports,
    cpuMs: () => {
      // Fields after the command name (which may hold spaces): utime and stime are the 12th
      // and 13th, in clock ticks.
      const stat = readFileSync(statPath, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      }),
  };
}
