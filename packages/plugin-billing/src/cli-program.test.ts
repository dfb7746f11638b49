// biome-ignore-all lint/suspicious/noTemplateCurlyInString: configuration files hold literal ${ENV_VAR} references
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { createClient, createRouterTransport } from "@connectrpc/connect";
import { CostSourceService } from "@costplugin/proto";
import type { CostSourcePlugin } from "@costplugin/sdk";
import { createPluginRoutes } from "@costplugin/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { createBillingStore } from "./billing-store.js";
import { exitCodes, runCli } from "./cli-program.js";
import type { VendorStandIn } from "./vendor-stand-in/index.js";
import {
  createCostDataset,
  standInTokens,
  startVendorStandIn,
  writeConfigFile,
} from "./vendor-stand-in/index.js";

const now = () => new Date("2026-03-15T12:00:00Z");
const tokenEnv = {
  COSTPLUGIN_BILLING_TOKEN: standInTokens.bearer,
  COSTPLUGIN_BILLING_COST_REPORT_TOKEN: standInTokens.costReport,
};

let vendor: VendorStandIn;
afterEach(async () => {
  await vendor?.close();
});

async function setup(
  params: string[] = ["max_attempts: 2", "retry_initial_delay_ms: 1", "retry_max_delay_ms: 2"],
  token?: string,
) {
  vendor = await startVendorStandIn({
    dataset: createCostDataset({ resources: 5 }),
    now: () => now().getTime(),
  });
  const dir = mkdtempSync(join(tmpdir(), "billing-cli-"));
  const databaseUrl = join(dir, "billing.db");
  const config = writeConfigFile({
    dir,
    vendorUrl: vendor.url,
    databaseUrl,
    params,
    ...(token ? { token } : {}),
  });
  return { config, databaseUrl };
}

async function run(
  argv: string[],
  env: Record<string, string> = tokenEnv,
  serve?: (plugin: CostSourcePlugin) => Promise<unknown>,
) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on("data", (chunk) => out.push(String(chunk)));
  stderr.on("data", (chunk) => err.push(String(chunk)));
  const code = await runCli({
    argv,
    env,
    stdout,
    stderr,
    stderrIsTTY: false,
    now,
    serve: async (plugin) => serve?.(plugin),
  });
  const all = out.join("") + err.join("");
  for (const secret of Object.values(standInTokens)) expect(all).not.toContain(secret);
  return { code, stdout: out.join(""), stderr: err.join("") };
}

describe("runCli", () => {
  it("pulls, prints the summary on stdout and logs each chunk on stderr", async () => {
    const { config } = await setup();
    const result = await run(["pull", "--config", config]);
    expect(result.code).toBe(exitCodes.ok);
    expect(result.stdout).toBe(
      [
        "source stand-in: pulled 2026-02-14 to 2026-03-15 (30 days, initial)",
        "rows: 150 new, 0 changed, 0 unchanged, 0 removed",
        "requests: 5 (0 retries), pages: 5",
        "",
      ].join("\n"),
    );
    expect(result.stderr).toContain(
      "info: chunk stored (start=2026-02-14 end=2026-02-20 days_done=7",
    );
    const again = await run(["pull", "--config", config, "--json"]);
    expect(JSON.parse(again.stdout)).toMatchObject({
      mode: "incremental",
      startDay: "2026-03-13",
      rowsUnchanged: 15,
    });
  });

  it("back-fills a given range", async () => {
    const { config } = await setup();
    const result = await run([
      "pull",
      "--config",
      config,
      "--start-date",
      "2026-01-01",
      "--end-date",
      "2026-01-10",
    ]);
    expect(result.stdout).toContain("pulled 2026-01-01 to 2026-01-10 (10 days, range)");
  });

  it("logs retries without the token and counts them in the summary", async () => {
    const { config } = await setup();
    vendor.inject({ kind: "status", status: 503 }, { page: 1 });
    const result = await run(["pull", "--config", config]);
    expect(result.code).toBe(exitCodes.ok);
    expect(result.stderr).toContain("warn: retrying: the vendor failed (HTTP 503)");
    expect(result.stdout).toContain("requests: 6 (1 retry), pages: 5");
  });

  it("exits 2 naming an unknown configuration key", async () => {
    const { config } = await setup(["lookback: 3"]);
    const result = await run(["pull", "--config", config]);
    expect(result).toMatchObject({
      code: exitCodes.usage,
      stderr: "error: unknown configuration key: params.lookback\n",
    });
  });

  it("exits 2 naming an unset token variable", async () => {
    const { config } = await setup();
    const result = await run(["pull", "--config", config], {
      COSTPLUGIN_BILLING_COST_REPORT_TOKEN: standInTokens.costReport,
    });
    expect(result).toMatchObject({
      code: exitCodes.usage,
      stderr: "error: COSTPLUGIN_BILLING_TOKEN is not set (referenced by credentials.token)\n",
    });
  });

  it("warns about a literal token in the file without printing it", async () => {
    const { config } = await setup(undefined, standInTokens.bearer);
    const result = await run(["validate-token", "--config", config], {
      COSTPLUGIN_BILLING_COST_REPORT_TOKEN: standInTokens.costReport,
    });
    expect(result.code).toBe(exitCodes.ok);
    expect(result.stderr).toContain(
      "warn: credentials.token holds a literal token: use a ${ENV_VAR} reference or COSTPLUGIN_BILLING_TOKEN_FILE outside local development",
    );
  });

  it("fails a pull on a 401 with the remediation text", async () => {
    const { config } = await setup();
    vendor.inject({ kind: "status", status: 401 }, { times: 5 });
    const result = await run(["pull", "--config", config]);
    expect(result.code).toBe(exitCodes.failure);
    expect(result.stderr).toContain(
      "error: the vendor rejected the API token (HTTP 401): it is missing, expired, revoked or unknown.",
    );
  });

  it("refuses a pull while another holds the lock", async () => {
    const { config, databaseUrl } = await setup();
    const store = createBillingStore({ url: databaseUrl });
    try {
      let release: () => void = () => {};
      const held = store.withPullLock(
        "stand-in",
        () => new Promise<void>((resolve) => (release = resolve)),
      );
      const result = await run(["pull", "--config", config]);
      expect(result.code).toBe(exitCodes.locked);
      expect(result.stderr).toMatch(
        /^error: another pull of source "stand-in" is running \(pid \d+ on /,
      );
      release();
      await held;
    } finally {
      await store.close();
    }
  });

  it("rejects --end-date without --start-date, and malformed days", async () => {
    const { config } = await setup();
    await expect(
      run(["pull", "--config", config, "--end-date", "2026-01-01"]),
    ).resolves.toMatchObject({
      code: exitCodes.usage,
      stderr: "error: --end-date needs --start-date\n",
    });
    await expect(
      run(["pull", "--config", config, "--start-date", "2026-13-01"]),
    ).resolves.toMatchObject({
      code: exitCodes.usage,
    });
  });

  it("lists the commands, the variables it reads and its exit statuses in --help", async () => {
    const result = await run(["--help"]);
    expect(result.code).toBe(exitCodes.ok);
    for (const text of [
      "pull [options]",
      "serve [options]",
      "validate-token [options]",
      "COSTPLUGIN_BILLING_TOKEN_FILE",
      "COSTPLUGIN_BILLING_COST_REPORT_TOKEN",
      "COSTPLUGIN_BILLING_WORKSPACE_TOKEN",
      "COSTPLUGIN_BILLING_DATABASE_URL",
      "75 another pull of the source is running",
    ]) {
      expect(result.stdout).toContain(text);
    }
  });

  it("exits 2 when --config is missing", async () => {
    const result = await run(["pull"]);
    expect(result.code).toBe(exitCodes.usage);
    expect(result.stderr).toContain("required option '-c, --config <path>' not specified");
  });

  describe("validate-token", () => {
    it("says the token is accepted on 200", async () => {
      const { config } = await setup();
      const result = await run(["validate-token", "--config", config]);
      expect(result.code).toBe(exitCodes.ok);
      expect(result.stdout).toBe(
        `token accepted (HTTP 200) by ${vendor.url}/costs\nAPI token from COSTPLUGIN_BILLING_TOKEN; cost report token from COSTPLUGIN_BILLING_COST_REPORT_TOKEN\n`,
      );
      expect(vendor.requests).toHaveLength(1);
    });

    it("says the token is accepted on 400 and what to check", async () => {
      const { config } = await setup();
      vendor.inject({ kind: "status", status: 400 });
      const result = await run(["validate-token", "--config", config]);
      expect(result.code).toBe(exitCodes.ok);
      expect(result.stdout).toContain("token accepted (HTTP 400)");
    });

    it.each([401, 403] as const)("says the token is rejected on %i and exits 3", async (status) => {
      const { config } = await setup();
      vendor.inject({ kind: "status", status });
      const result = await run(["validate-token", "--config", config]);
      expect(result.code).toBe(exitCodes.rejected);
      expect(result.stdout).toContain(`token rejected (HTTP ${status}) by ${vendor.url}/costs\n`);
      expect(result.stdout).toContain(
        status === 401 ? "expired, revoked or unknown" : "grant read-only cost access",
      );
    });
  });

  it("serves the store through the given server function", async () => {
    const { config } = await setup();
    await run(["pull", "--config", config]);
    let served: CostSourcePlugin | undefined;
    const result = await run(["serve", "--config", config, "--port", "0"], {}, async (plugin) => {
      served = plugin;
    });
    expect(result.code).toBe(exitCodes.ok);
    if (!served) throw new Error("serve did not start the plugin");
    const client = createClient(
      CostSourceService,
      createRouterTransport(createPluginRoutes(served)),
    );
    await expect(
      client.supports({ resource: { provider: "aws", resourceType: "AmazonEC2" } }),
    ).resolves.toBeDefined();
    await served.close?.();
  });
});
