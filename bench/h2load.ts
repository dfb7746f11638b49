import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** One load run: what to send, where, and how hard. */
export interface LoadOptions {
  readonly url: string;
  readonly body: Uint8Array;
  readonly headers: Readonly<Record<string, string>>;
  /** HTTP/1.1 instead of HTTP/2 (prior knowledge). */
  readonly http1: boolean;
  readonly connections: number;
  /** Concurrent streams per connection (HTTP/2); 1 for HTTP/1.1. */
  readonly streams: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
  /** CPU the load generator is pinned to. */
  readonly cpu: number;
}

/** What one load run measured. */
export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/** The exact command line of a run, for BENCHMARKS.md. */
export function h2loadArgs(o: LoadOptions, bodyFile: string, logFile: string): string[] {
  return [
    "-c",
    String(o.connections),
    "-m",
    String(o.streams),
    "-t",
    "1",
    "-D",
    String(o.seconds),
    `--warm-up-time=${o.warmupSeconds}`,
    "-d",
    bodyFile,
    ...Object.entries(o.headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]),
    ...(o.http1 ? ["--h1"] : []),
    `--log-file=${logFile}`,
    o.url,
  ];
}

/** Runs h2load pinned to one CPU and reads throughput and latency percentiles from its log. */
export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), "costplugin-bench-"));
  try {
    const bodyFile = join(dir, "body.bin");
    const logFile = join(dir, "requests.log");
    writeFileSync(bodyFile, o.body);
    const { stdout } = await run(
      "taskset",
      ["-c", String(o.cpu), "h2load", ...h2loadArgs(o, bodyFile, logFile)],
      {
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const rps = Number(/finished in [\d.]+m?s, ([\d.]+) req\/s/.exec(stdout)?.[1] ?? Number.NaN);
    const counts = /requests: \d+ total, \d+ started, \d+ done, (\d+) succeeded, (\d+) failed/.exec(
      stdout,
    );
    const latencies = readFileSync(logFile, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => line.split("\t"))
      .filter((cols) => cols[1]?.startsWith("2"))
      .map((cols) => Number(cols[2]) / 1000)
      .sort((a, b) => a - b);
    const pct = (p: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? Number.NaN;
    return {
      requestsPerSecond: rps,
      succeeded: Number(counts?.[1] ?? 0),
      failed: Number(counts?.[2] ?? 0),
      p50Ms: pct(0.5),
      p99Ms: pct(0.99),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
