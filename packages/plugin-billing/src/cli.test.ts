import type { ChildProcess } from "node:child_process";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { CostSourceService } from "@costplugin/proto";
import { afterEach, describe, expect, it } from "vitest";
import { canonicalAmount } from "./decimal-amount.js";
import type { VendorStandIn } from "./vendor-stand-in/index.js";
import {
  createCostDataset,
  openMigratedStore,
  standInTokens,
  startVendorStandIn,
  writeConfigFile,
} from "./vendor-stand-in/index.js";

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const cliPath = join(packageDir, "src", "cli.ts");

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the real program (TypeScript sources through tsx) as a child process. */
function start(
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; done: Promise<Finished>; stdout: () => string } {
  const child = spawn(
    process.execPath,
    ["--conditions=source", "--import", "tsx", cliPath, ...args],
    {
      cwd: packageDir,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk) => {
    stdout += String(chunk);
  });
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const done = once(child, "exit").then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
    stdout,
    stderr,
  }));
  return { child, done, stdout: () => stdout };
}

let vendor: VendorStandIn | undefined;
afterEach(async () => {
  await vendor?.close();
  vendor = undefined;
});

describe("costplugin-billing (the program)", () => {
  it("never prints, stores or exposes a token: pull, validate-token and serve output, the store file and /metrics", async () => {
    vendor = await startVendorStandIn({
      dataset: createCostDataset({ resources: 6, lastDay: "2027-12-31" }),
    });
    const dir = mkdtempSync(join(tmpdir(), "billing-process-"));
    const databaseUrl = join(dir, "billing.db");
    const tokenFile = join(dir, "token");
    writeFileSync(tokenFile, `${standInTokens.bearer}\n`);
    const config = writeConfigFile({
      dir,
      vendorUrl: vendor.url,
      databaseUrl,
      params: [
        "initial_days: 5",
        "retry_initial_delay_ms: 1",
        "retry_max_delay_ms: 2",
        "page_size: 10",
      ],
    });
    const env = {
      COSTPLUGIN_BILLING_TOKEN_FILE: tokenFile,
      COSTPLUGIN_BILLING_COST_REPORT_TOKEN: standInTokens.costReport,
    };
    vendor.inject({ kind: "status", status: 503 }, { page: 2 });
    vendor.inject({ kind: "rate-limit", retryAfterSeconds: 0 }, { page: 3 });
    const outputs: string[] = [];

    const pull = await start(["pull", "--config", config], env).done;
    outputs.push(pull.stdout, pull.stderr);
    expect(pull.code).toBe(0);
    expect(pull.stdout).toMatch(/rows: 30 new, 0 changed, 0 unchanged, 0 removed/);
    expect(pull.stderr).toContain("retrying: the vendor failed (HTTP 503)");

    const validate = await start(["validate-token", "--config", config], env).done;
    outputs.push(validate.stdout, validate.stderr);
    expect(validate.code).toBe(0);

    vendor.inject({ kind: "status", status: 401 });
    const rejected = await start(["validate-token", "--config", config], env).done;
    outputs.push(rejected.stdout, rejected.stderr);
    expect(rejected.code).toBe(3);

    const serve = start(["serve", "--config", config, "--port", "0"], env);
    let metrics = "";
    try {
      const port = await new Promise<string>((resolve, reject) => {
        serve.child.stdout?.on("data", () => {
          const match = /PORT=(\d+)/.exec(serve.stdout());
          if (match?.[1]) resolve(match[1]);
        });
        serve.done.then((f) => reject(new Error(`serve exited early: ${f.stderr}`)), reject);
      });
      const baseUrl = `http://127.0.0.1:${port}`;
      const client = createClient(
        CostSourceService,
        createConnectTransport({ baseUrl, httpVersion: "1.1" }),
      );
      const resourceId = vendor.dataset.resources[0]?.resourceId ?? "";
      const today = new Date();
      const response = await client.getActualCost({
        resourceId,
        start: timestampFromDate(new Date(today.getTime() - 10 * 86_400_000)),
        end: timestampFromDate(today),
      });
      expect(response.results.length).toBeGreaterThan(0);
      metrics = await (await fetch(`${baseUrl}/metrics`)).text();
      expect(metrics).toContain("costplugin_billing_last_pull_age_seconds");
    } finally {
      serve.child.kill("SIGTERM");
    }
    const served = await serve.done;
    outputs.push(served.stdout, served.stderr, metrics);
    expect(served.code).toBe(0);

    for (const suffix of ["", "-wal", "-shm"]) {
      const path = `${databaseUrl}${suffix}`;
      if (existsSync(path)) outputs.push(readFileSync(path).toString("latin1"));
    }
    const everything = outputs.join("\n");
    // The tokens were really used...
    expect(vendor.requests.some((r) => r.authorization === `Bearer ${standInTokens.bearer}`)).toBe(
      true,
    );
    expect(vendor.requests.some((r) => r.url.includes(standInTokens.costReport))).toBe(true);
    // ...and appear nowhere the program wrote.
    for (const secret of [standInTokens.bearer, standInTokens.costReport]) {
      expect(everything).not.toContain(secret);
      expect(everything).not.toContain(encodeURIComponent(secret));
    }
  }, 90_000);

  it("draws a progress bar on a terminal, then prints the summary, never the token", async () => {
    vendor = await startVendorStandIn({
      dataset: createCostDataset({ resources: 6, lastDay: "2027-12-31" }),
    });
    const dir = mkdtempSync(join(tmpdir(), "billing-tty-"));
    const config = writeConfigFile({
      dir,
      vendorUrl: vendor.url,
      databaseUrl: join(dir, "billing.db"),
      params: ["initial_days: 5", "chunk_days: 2", "page_size: 10"],
    });
    const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
    const command = [
      process.execPath,
      "--conditions=source",
      "--import",
      "tsx",
      cliPath,
      "pull",
      "--config",
      config,
    ]
      .map(quote)
      .join(" ");
    // `script` runs the program on a pseudo-terminal, as a person at a terminal would.
    const child = spawn(
      "script",
      ["-qfec", `stty cols 120 rows 40; exec ${command}`, "/dev/null"],
      {
        cwd: packageDir,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: process.env.HOME ?? "",
          TERM: "xterm",
          COSTPLUGIN_BILLING_TOKEN: standInTokens.bearer,
          COSTPLUGIN_BILLING_COST_REPORT_TOKEN: standInTokens.costReport,
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout?.on("data", (chunk) => {
      output += String(chunk);
    });
    child.stderr?.on("data", (chunk) => {
      output += String(chunk);
    });
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
    // The bar: cursor control sequences and its last state, all days done.
    expect(output).toContain("\u001b[");
    expect(output).toMatch(/pulling \|=+\| 5\/5 days \| 30 rows/);
    // Log lines are for non-terminals only; the summary closes the run.
    expect(output).not.toContain("chunk stored");
    expect(output).toMatch(/rows: 30 new, 0 changed, 0 unchanged, 0 removed/);
    expect(output).toMatch(/requests: \d+ \(0 retries\), pages: \d+/);
    for (const secret of [standInTokens.bearer, standInTokens.costReport]) {
      expect(output).not.toContain(secret);
      expect(output).not.toContain(encodeURIComponent(secret));
    }
  }, 60_000);

  it("ends with exactly the data of a clean pull when killed half-way and run again", async () => {
    const dataset = createCostDataset({ resources: 30 });
    vendor = await startVendorStandIn({ dataset });
    const dir = mkdtempSync(join(tmpdir(), "billing-kill-"));
    const databaseUrl = join(dir, "billing.db");
    const config = writeConfigFile({
      dir,
      vendorUrl: vendor.url,
      databaseUrl,
      params: ["page_size: 40", "chunk_days: 5"],
    });
    const env = {
      COSTPLUGIN_BILLING_TOKEN: standInTokens.bearer,
      COSTPLUGIN_BILLING_COST_REPORT_TOKEN: standInTokens.costReport,
    };
    const args = [
      "pull",
      "--config",
      config,
      "--start-date",
      "2026-01-01",
      "--end-date",
      "2026-01-20",
    ];
    // The program is killed as its 12th request arrives (the third of four chunks).
    let requests = 0;
    const first = start(args, env);
    const stopped = new Promise<void>((resolve) => {
      vendor?.onRequest(() => {
        requests += 1;
        if (requests === 12) {
          first.child.kill("SIGKILL");
          resolve();
        }
      });
    });
    await stopped;
    expect((await first.done).signal).toBe("SIGKILL");

    const store = await openMigratedStore(databaseUrl);
    try {
      const partial = await store.countRows("stand-in");
      expect(partial).toBeGreaterThan(0);
      expect(partial).toBeLessThan(20 * 30);

      const rerun = await start(args, env).done;
      expect(rerun.stderr).not.toContain("another pull");
      expect(rerun.code).toBe(0);
      expect(await store.countRows("stand-in")).toBe(20 * 30);
      const stored = Object.fromEntries(
        (await store.dailyTotals("stand-in")).map((t) => [t.day, t.amount]),
      );
      const expected = Object.fromEntries(
        [...dataset.totals("2026-01-01", "2026-01-20")].map(([day, amount]) => [
          day,
          canonicalAmount(amount),
        ]),
      );
      expect(stored).toEqual(expected);
    } finally {
      await store.close();
    }
  }, 90_000);
});
