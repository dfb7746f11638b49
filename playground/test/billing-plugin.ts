import type { BillingStore } from "@costplugin/plugin-billing";
import { createBillingPlugin } from "@costplugin/plugin-billing";
import type { DatasetResource } from "@costplugin/plugin-billing/vendor-stand-in";
import {
  createCostDataset,
  createTestPuller,
  openMigratedStore,
  startVendorStandIn,
} from "@costplugin/plugin-billing/vendor-stand-in";
import type { RunningServer } from "@costplugin/server";
import { startServer } from "@costplugin/server";

/** The day the billing data was pulled: the 30 days up to it are stored. */
export const billingNow = new Date("2026-03-10T06:00:00Z");
/** The source name the billing plugin answers with. */
export const billingSource = "stand-in-costs";

/** The real billing-data plugin over a store filled by a pull from the stand-in vendor. */
export interface BillingPluginFixture {
  readonly server: RunningServer;
  /** A resource the store holds costs for (hourly usage, so the table shows usage too). */
  readonly resource: DatasetResource;
  close(): Promise<void>;
}

/**
 * Starts the stand-in vendor, pulls 30 days of its data into an in-memory store, stops the
 * vendor and serves `createBillingPlugin` over that store with `startServer` on 127.0.0.1:0.
 */
export async function startBillingPlugin(options: {
  readonly allowedOrigins: string[];
}): Promise<BillingPluginFixture> {
  const now = () => billingNow;
  const dataset = createCostDataset({ resources: 12 });
  const vendor = await startVendorStandIn({ dataset, now: () => billingNow.getTime() });
  let store: BillingStore | undefined;
  try {
    store = await openMigratedStore(":memory:");
    await createTestPuller({ store, vendorUrl: vendor.url, source: billingSource, now }).pull();
  } catch (error) {
    await store?.close();
    throw error;
  } finally {
    await vendor.close();
  }
  const resource = dataset.resources.find((candidate) => candidate.usageUnit === "hour");
  if (resource === undefined) throw new Error("the stand-in dataset has no hourly resource");
  const filled = store;
  const server = await startServer({
    plugin: createBillingPlugin({
      store: filled,
      source: billingSource,
      staleAfterMs: 48 * 3_600_000,
      now,
    }),
    logger: false,
    cors: { allowedOrigins: options.allowedOrigins },
  });
  return {
    server,
    resource,
    async close() {
      await server.close();
      await filled.close();
    },
  };
}
