import type { TestPostgresDatabase } from "@costplugin/store/testing";
import { createTestPostgresDatabase } from "@costplugin/store/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { BillingStore } from "./billing-store.js";
import { canonicalAmount } from "./decimal-amount.js";
import { planPull } from "./pull.js";
import { PullLockedError } from "./pull-lock.js";
import { VendorError } from "./vendor-error.js";
import type { VendorFault, VendorStandIn } from "./vendor-stand-in/index.js";
import {
  createCostDataset,
  createTestPuller,
  openMigratedStore,
  startVendorStandIn,
  temporarySqlitePath,
} from "./vendor-stand-in/index.js";

const now = () => new Date("2026-03-15T12:00:00Z");
// 30 initial days ending 2026-03-15: 2026-02-14 .. 2026-03-15.
const firstDay = "2026-02-14";
const lastDay = "2026-03-15";

let pg: TestPostgresDatabase;
beforeAll(async () => {
  pg = await createTestPostgresDatabase();
});
afterAll(async () => {
  await pg?.drop();
});

const engines: Array<[string, () => string]> = [
  ["sqlite", temporarySqlitePath],
  ["postgres", () => pg.url],
];

let sourceCounter = 0;
const nextSource = () => `src-${process.pid}-${++sourceCounter}`;

/** Totals per day as canonical text, and the row count: what "the same store" means here. */
async function snapshot(store: BillingStore, source: string) {
  const totals = await store.dailyTotals(source);
  return {
    rows: await store.countRows(source),
    totals: Object.fromEntries(totals.map((t) => [t.day, t.amount])),
  };
}

function expected(vendor: VendorStandIn) {
  const totals = vendor.dataset.totals(firstDay, lastDay);
  return {
    rows: totals.size * vendor.dataset.rowsPerDay,
    totals: Object.fromEntries([...totals].map(([day, amount]) => [day, canonicalAmount(amount)])),
  };
}

describe.each(engines)("runPull on %s", (_dialect, url) => {
  const open: Array<{ close(): Promise<void> }> = [];
  const setup = async (options: Parameters<typeof startVendorStandIn>[0] = {}) => {
    const vendor = await startVendorStandIn({
      dataset: createCostDataset({ resources: 12 }),
      now: () => now().getTime(),
      ...options,
    });
    const store = await openMigratedStore(url());
    open.push(vendor, store);
    const source = nextSource();
    return {
      vendor,
      store,
      source,
      ...createTestPuller({ store, vendorUrl: vendor.url, source, now }),
    };
  };
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });

  it("stores exactly the vendor's rows and reports them as new on a first pull", async () => {
    const { vendor, store, source, pull } = await setup();
    const summary = await pull();
    expect(await snapshot(store, source)).toEqual(expected(vendor));
    expect(summary).toMatchObject({
      startDay: firstDay,
      endDay: lastDay,
      days: 30,
      mode: "initial",
      rowsNew: 360,
      rowsChanged: 0,
      rowsRemoved: 0,
    });
    expect(summary.requests).toBe(summary.pages);
  });

  const faults: Array<[string, VendorFault, { page?: number; times?: number }]> = [
    ["503", { kind: "status", status: 503 }, { page: 2, times: 2 }],
    ["500", { kind: "status", status: 500 }, { page: 1 }],
    ["429 with Retry-After", { kind: "rate-limit", retryAfterSeconds: 0 }, { page: 2 }],
    ["429 with x-rate-limit-reset", { kind: "rate-limit", resetInSeconds: 0 }, { page: 2 }],
    ["a truncated JSON body", { kind: "truncate" }, { page: 2 }],
    ["a connection dropped mid-body", { kind: "disconnect" }, { page: 1 }],
    ["a slow answer beyond the timeout", { kind: "delay", ms: 1200 }, { page: 2 }],
  ];
  it.each(faults)(
    "ends with the same store as a fault-free pull after %s",
    async (_name, fault, where) => {
      const { vendor, store, source, pull } = await setup();
      vendor.inject(fault, where);
      const summary = await pull({});
      expect(await snapshot(store, source)).toEqual(expected(vendor));
      expect(summary.retries).toBeGreaterThan(0);
    },
    20_000,
  );

  it("replaces a restated row instead of adding it twice", async () => {
    const { vendor, store, source, pull } = await setup();
    await pull();
    const resource = vendor.dataset.resources[3]?.resourceId ?? "";
    vendor.dataset.restate("2026-03-14", resource, 123_456_789);
    const summary = await pull();
    expect(summary).toMatchObject({ mode: "incremental", startDay: "2026-03-13", rowsChanged: 1 });
    expect(await snapshot(store, source)).toEqual(expected(vendor));
    const rows = await store.costsOfResource(source, resource, "2026-03-14", "2026-03-15");
    expect(rows.map((r) => r.amount)).toEqual(["123.456789"]);
  });

  it("removes a row the vendor withdrew when its days are read again", async () => {
    const { vendor, store, source, pull } = await setup();
    await pull();
    const resource = vendor.dataset.resources[0]?.resourceId ?? "";
    vendor.dataset.remove("2026-03-15", resource);
    const summary = await pull();
    expect(summary.rowsRemoved).toBe(1);
    const after = await snapshot(store, source);
    expect(after.rows).toBe(expected(vendor).rows - 1);
    expect(after.totals).toEqual(expected(vendor).totals);
  });

  it("ends with the data of a clean pull when a pull is cut off half-way and run again", async () => {
    const { vendor, store, source, pull } = await setup();
    const controller = new AbortController();
    let pages = 0;
    await expect(
      pull({
        signal: controller.signal,
        progress: {
          begin() {},
          page() {
            pages += 1;
            if (pages === 5) controller.abort(new Error("killed"));
          },
          chunk() {},
          end() {},
        },
      }),
    ).rejects.toThrow("killed");
    const partial = await snapshot(store, source);
    expect(partial.rows).toBeGreaterThan(0);
    expect(partial.rows).toBeLessThan(expected(vendor).rows);
    // A restatement lands while the pull is down: the rerun picks it up like a clean pull would.
    vendor.dataset.restate(lastDay, vendor.dataset.resources[1]?.resourceId ?? "", 1);
    await pull();
    expect(await snapshot(store, source)).toEqual(expected(vendor));
  });

  it("refuses a second pull of the same source while one is running, and leaves the data intact", async () => {
    const { vendor, store, source, pull } = await setup();
    vendor.inject({ kind: "delay", ms: 300 }, { page: 1 });
    const first = pull();
    await new Promise<void>((resolve) => {
      const off = vendor.onRequest(() => {
        off();
        resolve();
      });
    });
    await expect(pull()).rejects.toBeInstanceOf(PullLockedError);
    await first;
    expect(await snapshot(store, source)).toEqual(expected(vendor));
    await expect(pull()).resolves.toMatchObject({ mode: "incremental" });
  });

  it("reads every day when the vendor treats end_date as exclusive", async () => {
    const { vendor, store, source, pull } = await setup({ endDateInclusive: false });
    await pull();
    expect(await snapshot(store, source)).toEqual(expected(vendor));
  });

  it("back-fills an explicit range in chunks without moving the high-water mark backwards", async () => {
    const { vendor, store, source, pull } = await setup();
    await pull();
    const summary = await pull({ range: { startDay: "2026-01-01", endDay: "2026-01-20" } });
    expect(summary).toMatchObject({ mode: "range", days: 20, rowsNew: 240 });
    expect((await store.pullState(source)).highWaterDay).toBe(lastDay);
    const totals = vendor.dataset.totals("2026-01-01", "2026-01-20");
    const stored = await snapshot(store, source);
    for (const [day, amount] of totals) expect(stored.totals[day]).toBe(canonicalAmount(amount));
  });

  it("fails with the vendor's message on a 400 and keeps what was committed", async () => {
    const { vendor, pull } = await setup();
    vendor.inject(
      { kind: "status", status: 400, body: JSON.stringify({ errors: ["groupings is invalid"] }) },
      { page: 2 },
    );
    const error = await pull().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VendorError);
    expect((error as VendorError).message).toBe(
      "the vendor rejected the request (HTTP 400): groupings is invalid",
    );
  });

  it("rejects a page with an invalid row, naming where it is without quoting it", async () => {
    const { vendor, pull } = await setup();
    vendor.inject(
      {
        kind: "status",
        status: 200,
        body: JSON.stringify({
          links: { next: null },
          costs: [{ accrued_at: "2026-02-14", amount: "12,5", currency: "USD", resource_id: "x" }],
        }),
      },
      { page: 1 },
    );
    await expect(pull()).rejects.toThrow(
      "the vendor sent an invalid cost row (days 2026-02-14 to 2026-02-21, page 1, row 1): amount is not a decimal number",
    );
  });
});

describe("planPull", () => {
  it("re-reads the look-back window before the high-water mark", async () => {
    const store = await openMigratedStore(":memory:");
    try {
      await store.advanceHighWater("s", "2026-03-10");
      await expect(
        planPull({ store, source: "s", lookbackDays: 3, initialDays: 30, now }),
      ).resolves.toEqual({
        startDay: "2026-03-08",
        endDay: "2026-03-15",
        days: 8,
        mode: "incremental",
      });
    } finally {
      await store.close();
    }
  });

  it("has nothing to read when the look-back is zero and today is done", async () => {
    const store = await openMigratedStore(":memory:");
    try {
      await store.advanceHighWater("s", "2026-03-15");
      await expect(
        planPull({ store, source: "s", lookbackDays: 0, initialDays: 30, now }),
      ).resolves.toMatchObject({ days: 0 });
    } finally {
      await store.close();
    }
  });

  it("caps a back-fill range at today", async () => {
    const store = await openMigratedStore(":memory:");
    try {
      await expect(
        planPull({
          store,
          source: "s",
          lookbackDays: 3,
          initialDays: 30,
          now,
          range: { startDay: "2026-03-10", endDay: "2026-04-30" },
        }),
      ).resolves.toEqual({ startDay: "2026-03-10", endDay: "2026-03-15", days: 6, mode: "range" });
    } finally {
      await store.close();
    }
  });
});
