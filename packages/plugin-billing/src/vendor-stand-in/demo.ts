import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runPlugin } from "@costplugin/server";
import { runCli } from "../cli-program.js";
import { writeConfigFile } from "./config-file.js";
import { createCostDataset } from "./cost-dataset.js";
import { standInTokens } from "./test-setup.js";
import { startVendorStandIn } from "./vendor-stand-in.js";

// `pnpm demo`: starts the stand-in vendor, pulls 60 days into a fresh embedded store, then
// serves the plugin until Ctrl-C. Everything runs on 127.0.0.1.
const vendor = await startVendorStandIn({
  dataset: createCostDataset({ resources: 25, firstDay: "2025-01-01", lastDay: "2030-12-31" }),
  bearerTokens: [standInTokens.bearer],
});
const dir = mkdtempSync(join(tmpdir(), "costplugin-billing-demo-"));
const config = writeConfigFile({
  dir,
  vendorUrl: vendor.url,
  databaseUrl: join(dir, "billing.db"),
  source: "demo-vendor",
  params: ["initial_days: 60"],
});
const env = {
  ...process.env,
  COSTPLUGIN_BILLING_TOKEN: standInTokens.bearer,
  COSTPLUGIN_BILLING_COST_REPORT_TOKEN: standInTokens.costReport,
};
process.stderr.write(`stand-in vendor at ${vendor.url}\nconfiguration: ${config}\n`);
const base = {
  env,
  stdout: process.stdout,
  stderr: process.stderr,
  stderrIsTTY: process.stderr.isTTY === true,
};
let serverUrl = "http://127.0.0.1:<PORT>";
const serve = async (
  plugin: Parameters<typeof runPlugin>[0],
  options: Parameters<typeof runPlugin>[1],
) => {
  const running = await runPlugin(plugin, {
    ...options,
    server: { ...options?.server, onClose: () => vendor.close() },
  });
  serverUrl = running.url;
  return running;
};
for (const argv of [
  ["validate-token", "--config", config],
  ["pull", "--config", config],
  ["serve", "--config", config, ...process.argv.slice(2)],
]) {
  const code = await runCli({ ...base, argv, serve });
  if (code !== 0) {
    await vendor.close();
    process.exit(code);
  }
}
const example = vendor.dataset.resources[0]?.resourceId ?? "";
const end = new Date();
const start = new Date(end.getTime() - 7 * 86_400_000);
process.stderr.write(
  `try: curl -s -H 'content-type: application/json' -d '{"resourceId":"${example}","start":"${start.toISOString()}","end":"${end.toISOString()}"}' ${serverUrl}/costplugin.v1.CostSourceService/GetActualCost\n`,
);
