import { migrateToLatest, openDatabase } from "@costplugin/store";
import type { TestPostgresDatabase } from "@costplugin/store/testing";
import { createTestPostgresDatabase } from "@costplugin/store/testing";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { BillingStore } from "./billing-store.js";
import type { CostRow } from "./cost-row.js";
import { PullLockedError } from "./pull-lock.js";
import { billingMigrationsTable, createBillingMigrations } from "./store-migrations.js";
import { openMigratedStore, temporarySqlitePath } from "./vendor-stand-in/index.js";

let pg: TestPostgresDatabase;
beforeAll(async () => {
  pg = await createTestPostgresDatabase();
});
afterAll(async () => {
  await pg?.drop();
});

const row = (day: string, amount: string, extra: Partial<CostRow> = {}): CostRow => ({
  day,
  provider: "aws",
  accountId: "1",
  service: "AmazonEC2",
  region: "us-east-1",
  resourceId: "i-1",
  tagGroup: "",
  amount,
  currency: "USD",
  usageAmount: null,
  usageUnit: null,
  tags: ["env:prod"],
  ...extra,
});

let counter = 0;
const engines: Array<[string, () => string]> = [
  ["sqlite", temporarySqlitePath],
  ["postgres", () => pg.url],
];

describe.each(engines)("createBillingStore on %s", (dialect, url) => {
  let store: BillingStore;
  let storeUrl: string;
  beforeAll(async () => {
    storeUrl = url();
    store = await openMigratedStore(storeUrl);
    // Migrating twice is a no-op.
    await store.migrate();
  });
  afterAll(async () => {
    await store?.close();
  });
  afterEach(() => {
    counter += 1;
  });
  const fresh = () => `store-${dialect}-${process.pid}-${counter}`;

  it("reports new, changed and unchanged rows and replaces a restated amount", async () => {
    const s = fresh();
    const first = await store.beginPull(s);
    expect(
      await store.upsertRows(s, first, [row("2026-03-01", "1.5"), row("2026-03-02", "2")]),
    ).toEqual({
      inserted: 2,
      changed: 0,
      unchanged: 0,
    });
    const second = await store.beginPull(s);
    expect(second).toBeGreaterThan(first);
    expect(
      await store.upsertRows(s, second, [
        row("2026-03-01", "1.5"),
        row("2026-03-02", "2.01"),
        row("2026-03-03", "3"),
      ]),
    ).toEqual({ inserted: 1, changed: 1, unchanged: 1 });
    expect(await store.countRows(s)).toBe(3);
    expect(
      (await store.costsOfResource(s, "i-1", "2026-03-01", "2026-03-04")).map((r) => r.amount),
    ).toEqual(["1.5", "2.01", "3"]);
  });

  it("counts a change of tags or usage as a restatement", async () => {
    const s = fresh();
    const a = await store.beginPull(s);
    await store.upsertRows(s, a, [row("2026-03-01", "1")]);
    const b = await store.beginPull(s);
    expect(
      await store.upsertRows(s, b, [row("2026-03-01", "1", { tags: ["env:dev"] })]),
    ).toMatchObject({ changed: 1 });
    const c = await store.beginPull(s);
    expect(
      await store.upsertRows(s, c, [
        row("2026-03-01", "1", { tags: ["env:dev"], usageAmount: "2", usageUnit: "hour" }),
      ]),
    ).toMatchObject({ changed: 1 });
  });

  it("keeps one row when a page repeats a key, the last one winning", async () => {
    const s = fresh();
    const id = await store.beginPull(s);
    await store.upsertRows(s, id, [row("2026-03-01", "1"), row("2026-03-01", "7")]);
    expect(
      (await store.costsOfResource(s, "i-1", "2026-03-01", "2026-03-02")).map((r) => r.amount),
    ).toEqual(["7"]);
  });

  it("sums amounts exactly, whatever their precision", async () => {
    const s = fresh();
    const id = await store.beginPull(s);
    await store.upsertRows(s, id, [
      row("2026-03-01", "0.1"),
      row("2026-03-01", "0.2", { resourceId: "i-2" }),
      row("2026-03-01", "0.0000000000000000001", { resourceId: "i-3" }),
      row("2026-03-01", "123456789012345678.9", { resourceId: "i-4" }),
    ]);
    expect(await store.dailyTotals(s)).toEqual([
      {
        day: "2026-03-01",
        currency: "USD",
        amount: "123456789012345679.2000000000000000001",
        rows: 4,
      },
    ]);
  });

  it("clips a range of years to the stored days and answers the same rows as a short range", async () => {
    const s = fresh();
    const id = await store.beginPull(s);
    const rows = [
      row("2025-12-31", "1"),
      row("2026-03-01", "2"),
      row("2026-03-01", "3", { accountId: "2" }),
      row("2026-03-04", "4"),
    ];
    await store.upsertRows(s, id, rows);
    const amounts = async (from: string, to: string) =>
      (await store.costsOfResource(s, "i-1", from, to)).map((r) => `${r.day} ${r.amount}`);
    const all = ["2025-12-31 1", "2026-03-01 2", "2026-03-01 3", "2026-03-04 4"];
    expect((await amounts("2025-12-31", "2026-03-05")).sort()).toEqual(all);
    expect((await amounts("2016-01-01", "2036-01-01")).sort()).toEqual(all);
    expect(await amounts("1990-01-01", "1999-01-01")).toEqual([]);
    expect(await amounts("2026-03-02", "2026-03-04")).toEqual([]);
  });

  it("answers a resource's rows in day order, whatever order they were stored in", async () => {
    const s = fresh();
    const id = await store.beginPull(s);
    await store.upsertRows(s, id, [
      row("2026-03-03", "3"),
      row("2026-03-01", "1", { region: "eu-west-1" }),
      row("2026-03-02", "2"),
    ]);
    const days = (await store.costsOfResource(s, "i-1", "2026-03-01", "2026-03-04")).map(
      (r) => `${r.day} ${r.region}`,
    );
    expect(days).toEqual(["2026-03-01 eu-west-1", "2026-03-02 us-east-1", "2026-03-03 us-east-1"]);
  });

  it("removes only the rows of the range that the pull did not see", async () => {
    const s = fresh();
    const a = await store.beginPull(s);
    await store.upsertRows(s, a, [
      row("2026-03-01", "1"),
      row("2026-03-02", "2"),
      row("2026-03-03", "3"),
    ]);
    const b = await store.beginPull(s);
    await store.upsertRows(s, b, [row("2026-03-02", "2")]);
    expect(await store.removeUnseen(s, b, "2026-03-01", "2026-03-02")).toBe(1);
    expect((await store.dailyTotals(s)).map((t) => t.day)).toEqual(["2026-03-02", "2026-03-03"]);
  });

  it("never moves the high-water mark backwards", async () => {
    const s = fresh();
    await store.advanceHighWater(s, "2026-03-10");
    await store.advanceHighWater(s, "2026-02-01");
    expect((await store.pullState(s)).highWaterDay).toBe("2026-03-10");
  });

  it("lists each provider, service and region once, and the last day with data", async () => {
    const s = fresh();
    const id = await store.beginPull(s);
    await store.upsertRows(s, id, [
      row("2026-03-05", "1"),
      row("2026-03-01", "1", { resourceId: "i-2" }),
    ]);
    await store.upsertRows(s, id, [
      row("2026-03-09", "1", { resourceId: "i-3", region: "eu-west-1" }),
    ]);
    const dims = await store.dimensions(s);
    expect(dims).toEqual([
      { provider: "aws", service: "AmazonEC2", region: "eu-west-1" },
      { provider: "aws", service: "AmazonEC2", region: "us-east-1" },
    ]);
    expect(await store.lastDayOf(s, dims.slice(1))).toBe("2026-03-05");
    expect(await store.lastDayOf(s, dims)).toBe("2026-03-09");
  });

  it("refuses a second holder of the pull lock of a source, and frees it afterwards", async () => {
    const s = fresh();
    let release: () => void = () => {};
    let acquired: () => void = () => {};
    const holding = new Promise<void>((resolve) => (acquired = resolve));
    const held = store.withPullLock(s, () => {
      acquired();
      return new Promise<void>((resolve) => (release = resolve));
    });
    await holding;
    await expect(store.withPullLock(s, async () => "second")).rejects.toBeInstanceOf(
      PullLockedError,
    );
    await expect(store.withPullLock(`${s}-other`, async () => "other source")).resolves.toBe(
      "other source",
    );
    release();
    await held;
    await expect(store.withPullLock(s, async () => "third")).resolves.toBe("third");
  });

  it("refuses the pull lock held by another connection to the same store", async () => {
    const s = fresh();
    const other = await openMigratedStore(storeUrl);
    try {
      let release: () => void = () => {};
      let acquired: () => void = () => {};
      const holding = new Promise<void>((resolve) => (acquired = resolve));
      const held = store.withPullLock(s, () => {
        acquired();
        return new Promise<void>((resolve) => (release = resolve));
      });
      await holding;
      await expect(other.withPullLock(s, async () => "second")).rejects.toThrow(
        new RegExp(`another pull of source "${s}" is running`),
      );
      release();
      await held;
    } finally {
      await other.close();
    }
  });
});

describe.each(engines)("createBillingMigrations on %s", (dialect) => {
  it("keeps every row and the upsert key when 0002 re-keys billing_costs by day", async () => {
    const database = dialect === "postgres" ? await createTestPostgresDatabase() : undefined;
    const url = database?.url ?? temporarySqlitePath();
    try {
      const old = openDatabase<unknown>({ url });
      const migrations = createBillingMigrations(old.dialect);
      const first = migrations["0001_billing_store"];
      if (first === undefined) throw new Error("migration 0001 missing");
      await migrateToLatest(old.db, {
        migrations: { "0001_billing_store": first },
        tableName: billingMigrationsTable,
      });
      const before = await writeRowsLaidOutBy0001(old);
      expect(before).toBe(2);
      await old.close();

      const store = await openMigratedStore(url);
      try {
        const rows = await store.costsOfResource("legacy", "i-1", "2026-03-01", "2026-03-03");
        expect(rows.map((r) => [r.day, r.amount])).toEqual([
          ["2026-03-01", "1.5"],
          ["2026-03-02", "2"],
        ]);
        const pull = await store.beginPull("legacy");
        expect(await store.upsertRows("legacy", pull, [row("2026-03-02", "9")])).toEqual({
          inserted: 0,
          changed: 1,
          unchanged: 0,
        });
        expect(await store.countRows("legacy")).toBe(2);
      } finally {
        await store.close();
      }
    } finally {
      await database?.drop();
    }
  });
});

/** Writes two rows the way migration 0001 laid them out; returns how many were stored. */
async function writeRowsLaidOutBy0001(
  old: ReturnType<typeof openDatabase<unknown>>,
): Promise<number> {
  await sql`insert into billing_series (id, source, resource_id, provider, account_id, service, region, tag_group)
values (1, 'legacy', 'i-1', 'aws', '1', 'AmazonEC2', 'us-east-1', '')`.execute(old.db);
  await sql`insert into billing_costs (series_id, day, amount, currency, usage_amount, usage_unit, tags, revision, seen_pull, created_pull, changed_pull)
values (1, '2026-03-02', '2', 'USD', null, null, '["env:prod"]', 1, 0, 0, 0),
       (1, '2026-03-01', '1.5', 'USD', null, null, '["env:prod"]', 1, 0, 0, 0)`.execute(old.db);
  const counted = await sql<{
    n: number | string;
  }>`select count(*) as n from billing_costs`.execute(old.db);
  return Number(counted.rows[0]?.n);
}
