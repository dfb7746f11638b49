import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import { GetActualCostRequestSchema } from "@costplugin/proto";
import { createTestClient } from "@costplugin/sdk/testing";
import { createTestPostgresDatabase } from "@costplugin/store/testing";
import { createBillingPlugin } from "../src/billing-plugin.js";
import type { BillingStore } from "../src/billing-store.js";
import { defaultGroupings } from "../src/config.js";
import { runPull } from "../src/pull.js";
import { createVendorClient } from "../src/vendor-client.js";
import {
  createCostDataset,
  openMigratedStore,
  standInTokens,
  temporarySqlitePath,
} from "../src/vendor-stand-in/index.js";

/** Rows pulled per store: 365 days of this many resources. Override with BILLING_BENCH_RESOURCES. */
const resources = Number(process.env.BILLING_BENCH_RESOURCES ?? 2740);
const days = 365;
const firstDay = "2026-01-01";
const lastDay = "2026-12-31";
const queries = 1000;

interface PullFigures {
  readonly rows: number;
  readonly seconds: number;
  readonly rowsPerSecond: number;
  readonly peakRssMb: number;
}

interface LatencyFigures {
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly resultsPerCall: number;
}

/**
 * Starts the stand-in vendor in its own process (as a real vendor would be), so the figures
 * measure the plugin only. The child runs the TypeScript sources through tsx.
 */
async function startVendorProcess(): Promise<{ url: string; stop(): void }> {
  const main = join(
    dirname(fileURLToPath(import.meta.url)),
    "..",
    "src",
    "vendor-stand-in",
    "main.ts",
  );
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
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk) => {
      out += String(chunk);
      const match = /VENDOR_URL=(\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`stand-in vendor exited with ${code}`)));
  });
  return { url, stop: () => child.kill("SIGTERM") };
}

/** Peak resident memory while `work` runs, sampled every 20 ms. */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ value: T; peakRssMb: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { value, peakRssMb: peak / 1024 / 1024 };
  } finally {
    clearInterval(timer);
  }
}

async function measurePull(store: BillingStore, vendorUrl: string): Promise<PullFigures> {
  globalThis.gc?.();
  const client = createVendorClient({
    baseUrl: vendorUrl,
    bearerToken: standInTokens.bearer,
    scope: { kind: "cost_report", token: standInTokens.costReport },
    timeoutMs: 60_000,
    maxAttempts: 3,
    retryInitialDelayMs: 100,
    retryMaxDelayMs: 1000,
    rateLimitMaxWaitMs: 10_000,
    breakerFailures: 5,
    breakerHalfOpenMs: 60_000,
  });
  const started = performance.now();
  const { value: summary, peakRssMb } = await withPeakRss(() =>
    runPull({
      store,
      client,
      source: "bench",
      groupings: defaultGroupings,
      pageSize: 5000,
      chunkDays: 31,
      lookbackDays: 3,
      initialDays: 30,
      range: { startDay: firstDay, endDay: lastDay },
      now: () => new Date("2027-01-01T06:00:00Z"),
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const rows = summary.rowsNew + summary.rowsChanged + summary.rowsUnchanged;
  return { rows, seconds, rowsPerSecond: rows / seconds, peakRssMb };
}

async function measureActualCost(
  store: BillingStore,
  resourceIds: readonly string[],
): Promise<LatencyFigures[]> {
  const plugin = createBillingPlugin({ store, source: "bench", staleAfterMs: 1e12 });
  const { costSource } = createTestClient(plugin);
  const start = timestampFromDate(new Date(`${firstDay}T00:00:00Z`));
  const end = timestampFromDate(new Date("2027-01-01T00:00:00Z"));
  const resourceAt = (i: number) => resourceIds[(i * 7919) % resourceIds.length] ?? "";
  const direct = (i: number) =>
    Promise.resolve(
      plugin.getActualCost?.(
        create(GetActualCostRequestSchema, { resourceId: resourceAt(i), start, end }),
        {} as HandlerContext,
      ),
    ) as Promise<{ results: unknown[] }>;
  const viaConnect = (i: number) =>
    costSource.getActualCost({ resourceId: resourceAt(i), start, end });
  const figures: LatencyFigures[] = [];
  for (const call of [direct, viaConnect]) {
    for (let i = 0; i < 100; i += 1) await call(i);
    const durations: number[] = [];
    let results = 0;
    for (let i = 0; i < queries; i += 1) {
      const t = performance.now();
      const response = await call(i);
      durations.push(performance.now() - t);
      results += response.results.length;
    }
    durations.sort((a, b) => a - b);
    const at = (q: number) =>
      durations[Math.min(durations.length - 1, Math.floor(q * durations.length))] ?? 0;
    figures.push({ p50Ms: at(0.5), p99Ms: at(0.99), resultsPerCall: results / queries });
  }
  return figures;
}

/**
 * Pull throughput from the stand-in vendor into the embedded store and PostgreSQL (rows per
 * second, peak RSS of the plugin process) and GetActualCost latency for
 * one resource over 365 days with every pulled row stored.
 */
export async function run(): Promise<{ title: string; markdown: string }> {
  // The same dataset as the vendor process (same options, same seed): the resource ids to query.
  const ids = createCostDataset({ resources, firstDay, lastDay, seed: 7 }).resources.map(
    (r) => r.resourceId,
  );
  const vendor = await startVendorProcess();
  const lines: string[] = [];
  try {
    const sqlitePath = temporarySqlitePath();
    const sqlite = await openMigratedStore(sqlitePath);
    let sqlitePull: PullFigures;
    let sqliteLatency: LatencyFigures[];
    try {
      sqlitePull = await measurePull(sqlite, vendor.url);
      sqliteLatency = await measureActualCost(sqlite, ids);
    } finally {
      await sqlite.close();
      rmSync(dirname(sqlitePath), { recursive: true, force: true });
    }
    const pg = await createTestPostgresDatabase();
    let pgPull: PullFigures;
    let pgLatency: LatencyFigures[];
    try {
      const store = await openMigratedStore(pg.url);
      try {
        pgPull = await measurePull(store, vendor.url);
        pgLatency = await measureActualCost(store, ids);
      } finally {
        await store.close();
      }
    } finally {
      await pg.drop();
    }
    const pullRow = (name: string, f: PullFigures, target: string) =>
      `| ${name} | ${f.rows.toLocaleString("en-US")} | ${f.seconds.toFixed(1)} s | ${Math.round(f.rowsPerSecond).toLocaleString("en-US")} | ${f.peakRssMb.toFixed(0)} MB | ${target} |`;
    const latencyRows = (name: string, [direct, connect]: LatencyFigures[]) =>
      [
        [`${name}, plugin method`, direct],
        [`${name}, in-memory Connect (binary protobuf, SDK validation and metrics)`, connect],
      ].map(
        ([label, f]) =>
          `| ${label} | ${(f as LatencyFigures).resultsPerCall.toFixed(0)} | ${(f as LatencyFigures).p50Ms.toFixed(2)} ms | ${(f as LatencyFigures).p99Ms.toFixed(2)} ms | < 10 ms |`,
      );
    lines.push(
      `Stand-in vendor in its own process on 127.0.0.1, ${resources.toLocaleString("en-US")} resources x ${days} days, 5,000 rows per page, 31-day chunks.`,
      "",
      "| pull into | rows | time | rows/s | peak RSS | target |",
      "|---|---:|---:|---:|---:|---|",
      pullRow("SQLite (embedded)", sqlitePull, ">= 50,000 rows/s, < 300 MB"),
      pullRow("PostgreSQL", pgPull, "< 300 MB"),
      "",
      `GetActualCost, one resource over 365 days with every pulled row stored, ${queries} sequential calls over varying resources (${os.availableParallelism()} CPU cores, load average ${os.loadavg()[0]?.toFixed(1)} at the end):`,
      "",
      "| store | results per call | p50 | p99 | target p99 |",
      "|---|---:|---:|---:|---|",
      ...latencyRows("SQLite (embedded)", sqliteLatency),
      ...latencyRows("PostgreSQL", pgLatency),
    );
  } finally {
    vendor.stop();
  }
  return {
    title: "Billing plugin: pull throughput and GetActualCost latency",
    markdown: lines.join("\n"),
  };
}
