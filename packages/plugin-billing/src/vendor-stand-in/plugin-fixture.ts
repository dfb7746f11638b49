import type { BillingStore } from "../billing-store.js";
import type { CostRow } from "../cost-row.js";

/** The source name of the plugin fixture. */
export const fixtureSource = "fixture-vendor";

function row(
  day: string,
  resourceId: string,
  amount: string,
  extra: Partial<CostRow> = {},
): CostRow {
  return {
    day,
    provider: "aws",
    accountId: "123456789012",
    service: "AmazonEC2",
    region: "us-east-1",
    resourceId,
    tagGroup: "",
    amount,
    currency: "USD",
    usageAmount: "24",
    usageUnit: "hour",
    tags: ["aws:cloudformation:stack-name:web", "env:prod"],
    ...extra,
  };
}

/**
 * Known rows for plugin tests: `i-web` has one row per day from 2026-03-01 to 2026-03-05
 * (1.10, 2.20, 3.30, 4.40, 5.50) plus a second 0.05 row on 03-02 from another account; `i-dev`
 * (tag env:dev, eu-west-1) has 0.30 on 03-04 without usage; a bucket in S3 has 0.70 on 03-05.
 */
export const fixtureRows: readonly CostRow[] = [
  row("2026-03-01", "i-web", "1.10"),
  row("2026-03-02", "i-web", "2.20"),
  row("2026-03-02", "i-web", "0.05", { accountId: "210987654321", usageAmount: "1" }),
  row("2026-03-03", "i-web", "3.30"),
  row("2026-03-04", "i-web", "4.40"),
  row("2026-03-05", "i-web", "5.50"),
  row("2026-03-04", "i-dev", "0.30", {
    region: "eu-west-1",
    tags: ["env:dev"],
    usageAmount: null,
    usageUnit: null,
  }),
  row("2026-03-05", "bucket-logs", "0.70", {
    service: "AmazonS3",
    usageAmount: "10.5",
    usageUnit: "GB-month",
    tags: [],
  }),
];

/** Fills a migrated store with the fixture and records a successful pull at `pulledAt`. */
export async function loadPluginFixture(store: BillingStore, pulledAt: Date): Promise<void> {
  const pullId = await store.beginPull(fixtureSource);
  await store.upsertRows(fixtureSource, pullId, fixtureRows);
  await store.advanceHighWater(fixtureSource, "2026-03-05");
  await store.recordSuccess(fixtureSource, pulledAt, "{}");
}
