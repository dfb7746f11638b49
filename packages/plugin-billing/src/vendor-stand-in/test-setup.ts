import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BillingStore } from "../billing-store.js";
import { createBillingStore } from "../billing-store.js";
import { defaultGroupings } from "../config.js";
import type { PullOptions, PullSummary } from "../pull.js";
import { runPull } from "../pull.js";
import type { VendorClient, VendorClientOptions } from "../vendor-client.js";
import { createVendorClient } from "../vendor-client.js";

/** Tokens the stand-in accepts in tests and demos (not real secrets). */
export const standInTokens = {
  bearer: "tok0standin0bearer0A1b2C3d4E5f",
  costReport: "cr_standinreport0A1b2C3d4E5f6",
  workspace: "ws_standinworkspace0A1b2C3d4",
} as const;

/** A fresh SQLite file path in a temporary folder. */
export function temporarySqlitePath(): string {
  return join(mkdtempSync(join(tmpdir(), "billing-")), "billing.db");
}

/** Options of `createTestPuller`. */
export interface TestPullerOptions {
  /** The store (already migrated). */
  readonly store: BillingStore;
  /** The stand-in's base URL. */
  readonly vendorUrl: string;
  /** The source name. */
  readonly source: string;
  /** The clock. */
  readonly now: () => Date;
  /** Client overrides. */
  readonly client?: Partial<VendorClientOptions>;
  /** Pull overrides. */
  readonly pull?: Partial<PullOptions>;
}

/** A client tuned for tests (short delays) and a function running pulls with it. */
export function createTestPuller(options: TestPullerOptions): {
  client: VendorClient;
  pull: (overrides?: Partial<PullOptions>) => Promise<PullSummary>;
} {
  const client = createVendorClient({
    baseUrl: options.vendorUrl,
    bearerToken: standInTokens.bearer,
    scope: { kind: "cost_report", token: standInTokens.costReport },
    timeoutMs: 1000,
    maxAttempts: 4,
    retryInitialDelayMs: 1,
    retryMaxDelayMs: 5,
    rateLimitMaxWaitMs: 5000,
    breakerFailures: 10,
    breakerHalfOpenMs: 60_000,
    now: () => options.now().getTime(),
    ...options.client,
  });
  return {
    client,
    pull: (overrides = {}) =>
      runPull({
        store: options.store,
        client,
        source: options.source,
        groupings: defaultGroupings,
        pageSize: 50,
        chunkDays: 7,
        lookbackDays: 3,
        initialDays: 30,
        now: options.now,
        ...options.pull,
        ...overrides,
      }),
  };
}

/** Opens and migrates a store at `url`. */
export async function openMigratedStore(url: string): Promise<BillingStore> {
  const store = createBillingStore({ url });
  await store.migrate();
  return store;
}
