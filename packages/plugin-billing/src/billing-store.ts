import type { Database, Dialect } from "@costplugin/store";
import { migrateToLatest, openDatabase } from "@costplugin/store";
import type { Kysely } from "kysely";
import { CompiledQuery, sql } from "kysely";
import type { CostRow } from "./cost-row.js";
import { sumAmounts } from "./decimal-amount.js";
import type { PullLock } from "./pull-lock.js";
import { createAdvisoryPullLock, createFilePullLock, createMemoryPullLock } from "./pull-lock.js";
import { billingMigrationsTable, createBillingMigrations } from "./store-migrations.js";
import type { BillingDatabase } from "./store-schema.js";
import { costsUpsert, seriesUpsert } from "./store-statements.js";

/** How an upsert batch changed the store. */
export interface UpsertCounts {
  /** Rows not stored before. */
  readonly inserted: number;
  /** Rows whose amount, currency, usage or tags changed (restatements). */
  readonly changed: number;
  /** Rows already stored with the same values. */
  readonly unchanged: number;
}

/** A stored row as GetActualCost and projections read it. */
export interface StoredCost {
  readonly day: string;
  readonly resourceId: string;
  readonly provider: string;
  readonly service: string;
  readonly region: string;
  readonly amount: string;
  readonly currency: string;
  readonly usageAmount: string | null;
  readonly usageUnit: string | null;
  /** The tags as stored: a JSON array of `key:value` strings (parse with `tagsOfStored`). */
  readonly tagsJson: string;
}

/** The tags of a stored row. */
export function tagsOfStored(row: StoredCost): string[] {
  return JSON.parse(row.tagsJson) as string[];
}

/** A provider/service/region combination present in the store. */
export interface StoredDimension {
  readonly provider: string;
  readonly service: string;
  readonly region: string;
}

/** What the store remembers about the pulls of one source. */
export interface PullState {
  /** Last day of the latest fully read chunk, or null before the first one. */
  readonly highWaterDay: string | null;
  /** When the last pull finished successfully (ISO 8601), or null. */
  readonly lastSuccessAt: string | null;
  /** The last successful pull's summary as JSON text, or null. */
  readonly lastSummary: string | null;
}

/** Total cost and row count of one day (per currency). */
export interface DailyTotal {
  readonly day: string;
  readonly currency: string;
  readonly amount: string;
  readonly rows: number;
}

/**
 * The billing store: exact decimal amounts as canonical text (sums are computed with decimal.js,
 * so they are exact on SQLite and PostgreSQL alike), upserted on their natural key (series and
 * day) so a restatement replaces a row instead of adding one.
 */
export interface BillingStore {
  /** `sqlite` or `postgres`. */
  readonly dialect: Dialect;
  /** Creates or updates the tables. */
  migrate(): Promise<void>;
  /** Runs `work` holding the pull lock of `source`; throws `PullLockedError` when it is held. */
  withPullLock<T>(source: string, work: () => Promise<T>): Promise<T>;
  /** Starts a pull: returns its id (increasing per source), used to track which rows it saw. */
  beginPull(source: string): Promise<number>;
  /**
   * Stores rows of one page in one transaction: new rows inserted, changed rows replaced (never
   * added twice), every row marked as seen by `pullId`.
   */
  upsertRows(source: string, pullId: number, rows: readonly CostRow[]): Promise<UpsertCounts>;
  /** Deletes rows of `[fromDay, toDay]` that pull `pullId` did not see (the vendor dropped them). */
  removeUnseen(source: string, pullId: number, fromDay: string, toDay: string): Promise<number>;
  /** Moves the high-water mark forward to `day` (never backwards). */
  advanceHighWater(source: string, day: string): Promise<void>;
  /** Records a successful pull. */
  recordSuccess(source: string, at: Date, summary: string): Promise<void>;
  /** The pull state of `source`. */
  pullState(source: string): Promise<PullState>;
  /** Rows of one resource with `fromDay <= day < toDayExclusive`, ordered by day. */
  costsOfResource(
    source: string,
    resourceId: string,
    fromDay: string,
    toDayExclusive: string,
  ): Promise<StoredCost[]>;
  /** True when any row of the resource is stored. */
  hasResource(source: string, resourceId: string): Promise<boolean>;
  /** The provider/service/region combinations stored for `source`. */
  dimensions(source: string): Promise<StoredDimension[]>;
  /** The last day with a stored row of the given combinations, or null. */
  lastDayOf(source: string, dimensions: readonly StoredDimension[]): Promise<string | null>;
  /** Rows of the given combinations with `fromDay <= day <= toDay`. */
  costsOfDimensions(
    source: string,
    dimensions: readonly StoredDimension[],
    fromDay: string,
    toDay: string,
  ): Promise<StoredCost[]>;
  /** Exact totals per day and currency, for summaries and checks. */
  dailyTotals(source: string): Promise<DailyTotal[]>;
  /** Number of rows stored for `source`. */
  countRows(source: string): Promise<number>;
  /** Throws when the database cannot be reached. */
  ping(): Promise<void>;
  /** Closes the connection or pool. */
  close(): Promise<void>;
}

/** Options of `createBillingStore`. */
export interface BillingStoreOptions {
  /** A file path or `:memory:` (embedded SQLite) or a `postgres://` URL. */
  readonly url: string;
}

// Rows per upsert statement: bounds the JSON parameter (about 1 MB) and the RETURNING set.
const batchRows = 5000;

/** Opens (and does not yet migrate) the billing store at `url`. */
export function createBillingStore(options: BillingStoreOptions): BillingStore {
  const database: Database<BillingDatabase> = openDatabase<BillingDatabase>({ url: options.url });
  const db = database.db;
  const dialect = database.dialect;
  const lock: PullLock =
    dialect === "postgres"
      ? createAdvisoryPullLock(db as Kysely<unknown>)
      : options.url === ":memory:"
        ? createMemoryPullLock()
        : createFilePullLock(options.url);
  // A larger page cache (32 MiB) keeps the indexes of millions of rows in memory while pulling.
  const tuned =
    dialect === "sqlite"
      ? sql`pragma cache_size = -32768`.execute(db).then(() => undefined)
      : Promise.resolve(undefined);
  tuned.catch(() => {});
  const seriesSql = seriesUpsert(dialect);
  // Ids of series already stored, so a page only sends the series it introduces. Series are
  // never deleted, so an entry cannot go stale; the bound only caps memory.
  const seriesIds = new Map<string, number>();
  const costsSql = costsUpsert(dialect);

  const ensureState = async (source: string) => {
    await db
      .insertInto("billing_pull_state")
      .values({
        source,
        high_water_day: null,
        last_success_at: null,
        last_summary: null,
        pull_generation: 0,
      })
      .onConflict((oc) => oc.column("source").doNothing())
      .execute();
  };

  const storedRows = () =>
    db
      .selectFrom("billing_costs as c")
      .innerJoin("billing_series as s", "s.id", "c.series_id")
      .select([
        "c.day",
        "s.resource_id",
        "s.provider",
        "s.service",
        "s.region",
        "c.amount",
        "c.currency",
        "c.usage_amount",
        "c.usage_unit",
        "c.tags",
      ]);

  return {
    dialect,
    async migrate() {
      await tuned;
      await migrateToLatest(db as Kysely<unknown>, {
        migrations: createBillingMigrations(dialect),
        tableName: billingMigrationsTable,
      });
    },
    withPullLock: (source, work) => lock(source, work),
    async beginPull(source) {
      await ensureState(source);
      const row = await db
        .updateTable("billing_pull_state")
        .set((eb) => ({ pull_generation: eb("pull_generation", "+", 1) }))
        .where("source", "=", source)
        .returning("pull_generation")
        .executeTakeFirstOrThrow();
      return Number(row.pull_generation);
    },
    async upsertRows(source, pullId, rows) {
      if (!Number.isSafeInteger(pullId)) throw new RangeError("pullId must be an integer");
      let inserted = 0;
      let changed = 0;
      let unchanged = 0;
      // Ids learned in this transaction join the cache only once it committed.
      const pending = new Map<string, number>();
      const idOf = (key: string) => pending.get(key) ?? seriesIds.get(key);
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += batchRows) {
          const batch = rows.slice(i, i + batchRows);
          // The series of the batch not seen yet by this store object.
          const fresh = new Map<string, [string, string, string, string, string, string]>();
          for (const r of batch) {
            const key = seriesKey(
              source,
              r.resourceId,
              r.provider,
              r.accountId,
              r.service,
              r.region,
              r.tagGroup,
            );
            if (idOf(key) === undefined && !fresh.has(key)) {
              fresh.set(key, [
                r.resourceId,
                r.provider,
                r.accountId,
                r.service,
                r.region,
                r.tagGroup,
              ]);
            }
          }
          if (fresh.size > 0) {
            const ids = await trx.executeQuery<{
              id: number;
              resource_id: string;
              provider: string;
              account_id: string;
              service: string;
              region: string;
              tag_group: string;
            }>(CompiledQuery.raw(seriesSql, [source, JSON.stringify([...fresh.values()])]));
            for (const s of ids.rows) {
              pending.set(
                seriesKey(
                  source,
                  s.resource_id,
                  s.provider,
                  s.account_id,
                  s.service,
                  s.region,
                  s.tag_group,
                ),
                Number(s.id),
              );
            }
          }
          // The last row of a repeated (series, day) wins: one statement must not touch a row twice.
          const costs = new Map<string, unknown[]>();
          for (const r of batch) {
            const id = idOf(
              seriesKey(
                source,
                r.resourceId,
                r.provider,
                r.accountId,
                r.service,
                r.region,
                r.tagGroup,
              ),
            );
            if (id === undefined) throw new Error("series id missing after upsert");
            costs.set(`${id} ${r.day}`, [
              id,
              r.day,
              r.amount,
              r.currency,
              r.usageAmount,
              r.usageUnit,
              JSON.stringify(r.tags),
            ]);
          }
          const json = JSON.stringify([...costs.values()]);
          const parameters =
            dialect === "postgres" ? [pullId, json] : [pullId, pullId, pullId, json];
          const result = await trx.executeQuery<{ created_pull: number; changed_pull: number }>(
            CompiledQuery.raw(costsSql, parameters),
          );
          for (const row of result.rows) {
            if (Number(row.created_pull) === pullId) inserted += 1;
            else if (Number(row.changed_pull) === pullId) changed += 1;
            else unchanged += 1;
          }
        }
      });
      if (seriesIds.size + pending.size > 500_000) seriesIds.clear();
      for (const [key, id] of pending) seriesIds.set(key, id);
      return { inserted, changed, unchanged };
    },
    async removeUnseen(source, pullId, fromDay, toDay) {
      const result = await db
        .deleteFrom("billing_costs")
        .where("day", ">=", fromDay)
        .where("day", "<=", toDay)
        .where("seen_pull", "<>", pullId)
        .where("series_id", "in", (eb) =>
          eb.selectFrom("billing_series").select("id").where("source", "=", source),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async advanceHighWater(source, day) {
      await ensureState(source);
      await db
        .updateTable("billing_pull_state")
        .set({ high_water_day: day })
        .where("source", "=", source)
        .where((eb) => eb.or([eb("high_water_day", "is", null), eb("high_water_day", "<", day)]))
        .execute();
    },
    async recordSuccess(source, at, summary) {
      await ensureState(source);
      await db
        .updateTable("billing_pull_state")
        .set({ last_success_at: at.toISOString(), last_summary: summary })
        .where("source", "=", source)
        .execute();
    },
    async pullState(source) {
      const row = await db
        .selectFrom("billing_pull_state")
        .select(["high_water_day", "last_success_at", "last_summary"])
        .where("source", "=", source)
        .executeTakeFirst();
      return {
        highWaterDay: row?.high_water_day ?? null,
        lastSuccessAt: row?.last_success_at ?? null,
        lastSummary: row?.last_summary ?? null,
      };
    },
    async costsOfResource(source, resourceId, fromDay, toDayExclusive) {
      // Two index lookups instead of a join, so no planner can pick the day index and scan
      // every resource's rows: the resource's series first, then each series' day range.
      const series = await db
        .selectFrom("billing_series")
        .select(["id", "provider", "service", "region"])
        .where("source", "=", source)
        .where("resource_id", "=", resourceId)
        .execute();
      if (series.length === 0) return [];
      const byId = new Map(series.map((s) => [Number(s.id), s]));
      const rows = await db
        .selectFrom("billing_costs")
        .select(["series_id", "day", "amount", "currency", "usage_amount", "usage_unit", "tags"])
        .where(
          "series_id",
          "in",
          series.map((s) => s.id),
        )
        .where("day", ">=", fromDay)
        .where("day", "<", toDayExclusive)
        .orderBy("day")
        .execute();
      const out: StoredCost[] = new Array(rows.length);
      for (let k = 0; k < rows.length; k += 1) {
        const row = rows[k] as (typeof rows)[number];
        const s = byId.get(Number(row.series_id));
        out[k] = {
          day: row.day,
          resourceId,
          provider: s?.provider ?? "",
          service: s?.service ?? "",
          region: s?.region ?? "",
          amount: row.amount,
          currency: row.currency,
          usageAmount: row.usage_amount,
          usageUnit: row.usage_unit,
          tagsJson: row.tags,
        };
      }
      return out;
    },
    async hasResource(source, resourceId) {
      const row = await db
        .selectFrom("billing_series")
        .select("id")
        .where("source", "=", source)
        .where("resource_id", "=", resourceId)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
    async dimensions(source) {
      const rows = await db
        .selectFrom("billing_series")
        .select(["provider", "service", "region"])
        .distinct()
        .where("source", "=", source)
        .orderBy("provider")
        .orderBy("service")
        .orderBy("region")
        .execute();
      return rows.map((r) => ({
        provider: r.provider,
        service: r.service,
        region: r.region,
      }));
    },
    async lastDayOf(source, dimensions) {
      if (dimensions.length === 0) return null;
      const row = await db
        .selectFrom("billing_costs")
        .select((eb) => eb.fn.max("day").as("last"))
        .where("series_id", "in", (eb) =>
          eb
            .selectFrom("billing_series")
            .select("id")
            .where("source", "=", source)
            .where((w) =>
              w.or(
                dimensions.map((d) =>
                  w.and([
                    w("provider", "=", d.provider),
                    w("service", "=", d.service),
                    w("region", "=", d.region),
                  ]),
                ),
              ),
            ),
        )
        .executeTakeFirst();
      return row?.last ?? null;
    },
    async costsOfDimensions(source, dimensions, fromDay, toDay) {
      if (dimensions.length === 0) return [];
      const rows = await storedRows()
        .where("s.source", "=", source)
        .where("c.day", ">=", fromDay)
        .where("c.day", "<=", toDay)
        .where((eb) =>
          eb.or(
            dimensions.map((d) =>
              eb.and([
                eb("s.provider", "=", d.provider),
                eb("s.service", "=", d.service),
                eb("s.region", "=", d.region),
              ]),
            ),
          ),
        )
        .orderBy("c.day")
        .execute();
      return rows.map(storedFromRow);
    },
    async dailyTotals(source) {
      const rows = await db
        .selectFrom("billing_costs as c")
        .innerJoin("billing_series as s", "s.id", "c.series_id")
        .select(["c.day", "c.currency", "c.amount"])
        .where("s.source", "=", source)
        .orderBy("c.day")
        .execute();
      const byKey = new Map<string, { day: string; currency: string; amounts: string[] }>();
      for (const row of rows) {
        const key = `${row.day} ${row.currency}`;
        let entry = byKey.get(key);
        if (!entry) {
          entry = { day: row.day, currency: row.currency, amounts: [] };
          byKey.set(key, entry);
        }
        entry.amounts.push(row.amount);
      }
      return [...byKey.values()].map((e) => ({
        day: e.day,
        currency: e.currency,
        amount: sumAmounts(e.amounts),
        rows: e.amounts.length,
      }));
    },
    async countRows(source) {
      const row = await db
        .selectFrom("billing_costs as c")
        .innerJoin("billing_series as s", "s.id", "c.series_id")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("s.source", "=", source)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    close: () => database.close(),
  };
}

function seriesKey(...parts: string[]): string {
  return parts.join("\u0000");
}

interface StoredRowShape {
  day: string;
  resource_id: string;
  provider: string;
  service: string;
  region: string;
  amount: string;
  currency: string;
  usage_amount: string | null;
  usage_unit: string | null;
  tags: string;
}

function storedFromRow(row: StoredRowShape): StoredCost {
  return {
    day: row.day,
    resourceId: row.resource_id,
    provider: row.provider,
    service: row.service,
    region: row.region,
    amount: row.amount,
    currency: row.currency,
    usageAmount: row.usage_amount,
    usageUnit: row.usage_unit,
    tagsJson: row.tags,
  };
}
