import { parseArgs } from "node:util";
import { createCostDataset } from "./cost-dataset.js";
import { standInTokens } from "./test-setup.js";
import { startVendorStandIn } from "./vendor-stand-in.js";

// Runs the stand-in vendor as its own process (benchmarks, demos): prints one
// `VENDOR_URL=<url>` line on stdout once listening and stops on SIGTERM or SIGINT.
const { values } = parseArgs({
  options: {
    resources: { type: "string", default: "40" },
    "first-day": { type: "string", default: "2026-01-01" },
    "last-day": { type: "string", default: "2026-12-31" },
    seed: { type: "string", default: "1" },
  },
});
const resources = Number(values.resources);
const seed = Number(values.seed);
if (!Number.isInteger(resources) || resources < 1 || !Number.isInteger(seed)) {
  process.stderr.write(
    "usage: main.ts [--resources N] [--first-day D] [--last-day D] [--seed N]\n",
  );
  process.exit(2);
}
const vendor = await startVendorStandIn({
  dataset: createCostDataset({
    resources,
    seed,
    firstDay: values["first-day"] as string,
    lastDay: values["last-day"] as string,
  }),
  bearerTokens: [standInTokens.bearer],
});
process.stdout.write(`VENDOR_URL=${vendor.url}\n`);
const stop = () => {
  vendor.close().then(() => process.exit(0));
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
