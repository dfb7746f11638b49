import type { ChildProcess } from "node:child_process";
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext, Transport } from "@connectrpc/connect";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { CostSourceService, GetActualCostRequestSchema } from "@costplugin/proto";
import { createTestClient } from "@costplugin/sdk/testing";
import { createTestPostgresDatabase } from "@costplugin/store/testing";
import { createBillingPlugin } from "../src/billing-plugin.js";
import type { BillingStore } from "../src/billing-store.js";
import { addDays, dayOf } from "../src/day.js";
import {
  createCostDataset,
  openMigratedStore,
  standInTokens,
  writeConfigFile,
} from "../src/vendor-stand-in/index.js";

/** Rows pulled per store: 365 days of this many resources. Override with BILLING_BENCH_RESOURCES. */
const resources = Number(process.env.BILLING_BENCH_RESOURCES ?? 2740);
const days = 365;
// The program pulls up to today: the dataset is the 365 days ending yesterday.
const lastDay = addDays(dayOf(Date.now()), -1);
const firstDay = addDays(lastDay, -(days - 1));
const queries = 1000;
const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const program = join(packageDir, "bin", "costplugin-billing.js");
const tokenEnv = {
  COSTPLUGIN_BILLING_TOKEN: standInTokens.bearer,
  COSTPLUGIN_BILLING_COST_REPORT_TOKEN: standInTokens.costReport,
};
// Loaded into the measured program: reports its peak resident set size (getrusage, kernel-kept,
// so no sampling can miss a peak) on file descriptor 3 as it exits.
const peakRssReporter = `data:text/javascript,${encodeURIComponent(
  'import { writeSync } from "node:fs"; process.on("exit", () => { writeSync(3, String(process.resourceUsage().maxRSS)); });',
)}`;

interface PullFigures {
  readonly rows: number;
  readonly seconds: number;
  readonly rowsPerSecond: number;
  readonly peakRssMb: number;
}

interface LatencyFigures {
  readonly label: string;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly resultsPerCall: number;
}

/** Builds the program as users run it (`dist/`, what `pnpm build` makes). */
function buildProgram(): void {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  execFileSync(process.execPath, [tsc, "-b", packageDir], { stdio: "inherit" });
}

/** Waits for a `NAME=value` line on a child's stdout. */
function announced(child: ChildProcess, name: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = "";
    const pattern = new RegExp(`${name}=(\\S+)`);
    child.stdout?.on("data", (chunk) => {
      out += String(chunk);
      const match = pattern.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`${name} never announced (exit ${code})`)));
  });
}

/**
 * Starts the stand-in vendor in its own process (as a real vendor would be), so the figures
 * measure the plugin only. The child runs the TypeScript sources through tsx.
 */
async function startVendorProcess(): Promise<{ url: string; stop(): void }> {
  const main = join(packageDir, "src", "vendor-stand-in", "main.ts");
  const child = spawn(
    process.execPath,
    [
      "--conditions=source",
      "--import",
      "tsx",
      main,
      "--resources",
      String(resources),
      "--first-day",
      firstDay,
      "--last-day",
      lastDay,
      "--seed",
      "7",
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const url = await announced(child, "VENDOR_URL");
  return { url, stop: () => child.kill("SIGTERM") };
}

/** Runs `costplugin-billing pull` over the whole dataset: wall time and exact peak RSS. */
async function measurePull(config: string, databaseUrl: string): Promise<PullFigures> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      "--import",
      peakRssReporter,
      program,
      "pull",
      "--config",
      config,
      "--start-date",
      firstDay,
      "--end-date",
      lastDay,
      "--json",
    ],
    {
      env: { ...process.env, ...tokenEnv, COSTPLUGIN_BILLING_DATABASE_URL: databaseUrl },
      stdio: ["ignore", "pipe", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  let maxRssKiB = "";
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  child.stdout?.on("data", (chunk) => {
    stdout += String(chunk);
  });
  child.stdio[3]?.on("data", (chunk) => {
    maxRssKiB += String(chunk);
  });
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`pull exited with ${code}: ${stderr.slice(-2000)}`);
  const summary = JSON.parse(stdout) as {
    rowsNew: number;
    rowsChanged: number;
    rowsUnchanged: number;
  };
  const rows = summary.rowsNew + summary.rowsChanged + summary.rowsUnchanged;
  return { rows, seconds, rowsPerSecond: rows / seconds, peakRssMb: Number(maxRssKiB) / 1024 };
}

/** Starts `costplugin-billing serve` on an ephemeral port of 127.0.0.1. */
async function startServeProcess(
  config: string,
  databaseUrl: string,
): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [program, "serve", "--config", config, "--port", "0"], {
    env: { ...process.env, COSTPLUGIN_BILLING_DATABASE_URL: databaseUrl },
    stdio: ["ignore", "pipe", "ignore"],
  });
  const port = await announced(child, "PORT");
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

async function latency(
  label: string,
  call: (resourceId: string) => Promise<{ results: unknown[] }>,
  resourceIds: readonly string[],
): Promise<LatencyFigures> {
  const resourceAt = (i: number) => resourceIds[(i * 7919) % resourceIds.length] ?? "";
  for (let i = 0; i < 100; i += 1) await call(resourceAt(i));
  const durations: number[] = [];
  let results = 0;
  for (let i = 0; i < queries; i += 1) {
    const t = performance.now();
    const response = await call(resourceAt(i));
    durations.push(performance.now() - t);
    results += response.results.length;
  }
  durations.sort((a, b) => a - b);
  const at = (q: number) =>
    durations[Math.min(durations.length - 1, Math.floor(q * durations.length))] ?? 0;
  return { label, p50Ms: at(0.5), p99Ms: at(0.99), resultsPerCall: results / queries };
}

/** GetActualCost for one resource over the 365 days: in process, and over a real server. */
async function measureActualCost(
  store: BillingStore,
  server: { url: string },
  resourceIds: readonly string[],
): Promise<LatencyFigures[]> {
  const plugin = createBillingPlugin({ store, source: "bench", staleAfterMs: 1e12 });
  const { costSource } = createTestClient(plugin);
  const start = timestampFromDate(new Date(`${firstDay}T00:00:00Z`));
  const end = timestampFromDate(new Date(`${addDays(lastDay, 1)}T00:00:00Z`));
  const request = (resourceId: string) =>
    create(GetActualCostRequestSchema, { resourceId, start, end });
  const over = (transport: Transport) => {
    const client = createClient(CostSourceService, transport);
    return (resourceId: string) => client.getActualCost(request(resourceId));
  };
  return [
    await latency(
      "plugin method",
      (resourceId) =>
        Promise.resolve(
          plugin.getActualCost?.(request(resourceId), {} as HandlerContext),
        ) as Promise<{ results: unknown[] }>,
      resourceIds,
    ),
    await latency(
      "in-memory Connect (SDK validation, metrics, binary protobuf)",
      (resourceId) => costSource.getActualCost(request(resourceId)),
      resourceIds,
    ),
    await latency(
      "`serve` process, gRPC over HTTP/2",
      over(createGrpcTransport({ baseUrl: server.url })),
      resourceIds,
    ),
    await latency(
      "`serve` process, Connect JSON over HTTP/1.1",
      over(createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" })),
      resourceIds,
    ),
  ];
}

/** Pulls into one store, then measures GetActualCost on it. */
async function measureStore(
  vendorUrl: string,
  databaseUrl: string,
  resourceIds: readonly string[],
): Promise<{ pull: PullFigures; latency: LatencyFigures[] }> {
  const dir = mkdtempSync(join(os.tmpdir(), "billing-bench-"));
  try {
    const config = writeConfigFile({
      dir,
      vendorUrl,
      databaseUrl,
      source: "bench",
      params: ["page_size: 5000", "chunk_days: 31"],
    });
    const pull = await measurePull(config, databaseUrl);
    const server = await startServeProcess(config, databaseUrl);
    const store = await openMigratedStore(databaseUrl);
    try {
      return { pull, latency: await measureActualCost(store, server, resourceIds) };
    } finally {
      await store.close();
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Pull throughput of the real program (`costplugin-billing pull`, compiled) from the stand-in
 * vendor into the embedded store and PostgreSQL (rows per second, peak RSS of the program) and
 * GetActualCost latency for one resource over 365 days with every pulled row stored: the plugin
 * method, the SDK's in-memory transport, and a `costplugin-billing serve` process over gRPC and
 * Connect.
 */
export async function run(): Promise<{ title: string; markdown: string }> {
  buildProgram();
  // The same dataset as the vendor process (same options, same seed): the resource ids to query.
  const ids = createCostDataset({ resources, firstDay, lastDay, seed: 7 }).resources.map(
    (r) => r.resourceId,
  );
  const loadAtStart = os.loadavg()[0] ?? 0;
  const vendor = await startVendorProcess();
  const lines: string[] = [];
  try {
    const sqliteDir = mkdtempSync(join(os.tmpdir(), "billing-bench-sqlite-"));
    let sqlite: Awaited<ReturnType<typeof measureStore>>;
    try {
      sqlite = await measureStore(vendor.url, join(sqliteDir, "billing.db"), ids);
    } finally {
      rmSync(sqliteDir, { recursive: true, force: true });
    }
    const pg = await createTestPostgresDatabase();
    let postgres: Awaited<ReturnType<typeof measureStore>>;
    try {
      postgres = await measureStore(vendor.url, pg.url, ids);
    } finally {
      await pg.drop();
    }
    const pullRow = (name: string, f: PullFigures, target: string) =>
      `| ${name} | ${f.rows.toLocaleString("en-US")} | ${f.seconds.toFixed(1)} s | ${Math.round(f.rowsPerSecond).toLocaleString("en-US")} | ${f.peakRssMb.toFixed(0)} MB | ${target} |`;
    const latencyRows = (name: string, figures: readonly LatencyFigures[]) =>
      figures.map(
        (f) =>
          `| ${name}, ${f.label} | ${f.resultsPerCall.toFixed(0)} | ${f.p50Ms.toFixed(2)} ms | ${f.p99Ms.toFixed(2)} ms | < 10 ms |`,
      );
    lines.push(
      `Stand-in vendor in its own process on 127.0.0.1, ${resources.toLocaleString("en-US")} resources x ${days} days (${firstDay} to ${lastDay}), 5,000 rows per page, 31-day chunks. Each pull is the compiled program (\`costplugin-billing pull --json\`) in its own process: time from start to exit (start-up and migrations included), peak RSS as the kernel kept it (getrusage).`,
      "",
      "| pull into | rows | time | rows/s | peak RSS | target |",
      "|---|---:|---:|---:|---:|---|",
      pullRow("SQLite (embedded)", sqlite.pull, ">= 50,000 rows/s, < 300 MB"),
      pullRow("PostgreSQL", postgres.pull, "< 300 MB"),
      "",
      `GetActualCost, one resource over 365 days with every pulled row stored, ${queries} sequential calls over varying resources after 100 warm-up calls; the \`serve\` process is the compiled program with its request logs (${os.availableParallelism()} CPU cores shared by the vendor, server, client and everything else on the machine; load average ${loadAtStart.toFixed(1)} at the start, ${(os.loadavg()[0] ?? 0).toFixed(1)} at the end):`,
      "",
      "| store, path | results per call | p50 | p99 | target p99 |",
      "|---|---:|---:|---:|---|",
      ...latencyRows("SQLite", sqlite.latency),
      ...latencyRows("PostgreSQL", postgres.latency),
    );
  } finally {
    vendor.stop();
  }
  return {
    title: "Billing plugin: pull throughput and GetActualCost latency",
    markdown: lines.join("\n"),
  };
}
