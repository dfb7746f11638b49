import type { Database, Dialect } from "@costplugin/store";
import { migrateToLatest, openDatabase } from "@costplugin/store";
import type { Kysely } from "kysely";
import { CompiledQuery, sql } from "kysely";
import type { CostRow } from "./cost-row.js";
import { addDays, daysBetween } from "./day.js";
import { sumAmounts } from "./decimal-amount.js";
import type { PullLock } from "./pull-lock.js";
import { createAdvisoryPullLock, createFilePullLock, createMemoryPullLock } from "./pull-lock.js";
import { createSeriesCache } from "./series-cache.js";
import type { CostTuple, SqliteFastPath } from "./sqlite-fast-path.js";
import { createSqliteFastPath } from "./sqlite-fast-path.js";
import { billingMigrationsTable, createBillingMigrations } from "./store-migrations.js";
import type { BillingDatabase } from "./store-schema.js";
import {
  costsOfSeriesSelect,
  costsUpsertPostgres,
  seriesUpsertPostgres,
} from "./store-statements.js";

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
  /**
   * Embedded SQLite only: bytes of the file read through memory mapping (`pragma mmap_size`).
   * Lookups then read pages where the operating system caches them instead of copying each
   * page in with a system call (GetActualCost reads one page per day of a resource). Default 0
   * (off): a pull writes, and mapped pages would count in its resident size.
   */
  readonly mmapBytes?: number;
}

// Rows per upsert statement: bounds the JSON parameter (about 1 MB) and the RETURNING set.
const batchRows = 5000;

/** Opens (and does not yet migrate) the billing store at `url`. */
export function createBillingStore(options: BillingStoreOptions): BillingStore {
  const database: Database<BillingDatabase> = openDatabase<BillingDatabase>({ url: options.url });
  const db = database.db;
  const dialect = database.dialect;
  const mmapBytes = options.mmapBytes ?? 0;
  if (!Number.isSafeInteger(mmapBytes) || mmapBytes < 0) {
    throw new RangeError("mmapBytes must be a non-negative integer");
  }
  const lock: PullLock =
    dialect === "postgres"
      ? createAdvisoryPullLock(db as Kysely<unknown>)
      : options.url === ":memory:"
        ? createMemoryPullLock()
        : createFilePullLock(options.url);
  // A larger page cache (32 MiB) keeps the key's inner pages and the chunk being reconciled in
  // memory on millions of rows.
  const tuned =
    dialect === "sqlite"
      ? sql`pragma cache_size = -32768`
          .execute(db)
          .then(() => sql.raw(`pragma mmap_size = ${mmapBytes}`).execute(db))
          .then(() => undefined)
      : Promise.resolve(undefined);
  tuned.catch(() => {});
  // Ids of series already stored, so a page only stores the series it introduces.
  const seriesIds = createSeriesCache();
  // PostgreSQL: whether this store object stored series since it last refreshed their statistics.
  let seriesAddedSinceAnalyze = false;
  // The embedded store's hot paths run on prepared statements (prepared once migrated).
  let fastPath: SqliteFastPath | undefined;
  const sqliteFastPath = (): SqliteFastPath | undefined => {
    if (database.sqlite === undefined) return undefined;
    fastPath ??= createSqliteFastPath(database.sqlite);
    return fastPath;
  };
  const costsOfSeriesSql = costsOfSeriesSelect(dialect);
  // The day lists of recent ranges: callers (dashboards, reports) ask for the same ranges again.
  const dayLists = new Map<string, DayList>();
  const dayList = (first: string, end: string): DayList => {
    const key = `${first} ${end}`;
    let list = dayLists.get(key);
    if (list === undefined) {
      const array: string[] = [];
      for (let day = first; day < end; day = addDays(day, 1)) array.push(day);
      list = { array, json: JSON.stringify(array) };
      if (dayLists.size >= 64) dayLists.clear();
      dayLists.set(key, list);
    }
    return list;
  };

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
      const sqlite = sqliteFastPath();
      if (sqlite !== undefined) return sqlite.upsertRows(source, pullId, rows, seriesIds);
      let inserted = 0;
      let changed = 0;
      let unchanged = 0;
      // Ids learned in this transaction join the cache only once it committed.
      const pending = createSeriesCache();
      const idOf = (r: CostRow) => pending.get(source, r) ?? seriesIds.get(source, r);
      await db.transaction().execute(async (trx) => {
        for (let from = 0; from < rows.length; from += batchRows) {
          const to = Math.min(rows.length, from + batchRows);
          // The series of the batch not stored yet by this store object are stored first.
          const fresh = new Map<string, [string, string, string, string, string, string]>();
          for (let i = from; i < to; i += 1) {
            const r = rows[i] as CostRow;
            if (idOf(r) !== undefined) continue;
            const dims: [string, string, string, string, string, string] = [
              r.resourceId,
              r.provider,
              r.accountId,
              r.service,
              r.region,
              r.tagGroup,
            ];
            fresh.set(JSON.stringify(dims), dims);
          }
          if (fresh.size > 0) {
            const ids = await trx.executeQuery<SeriesRow>(
              CompiledQuery.raw(seriesUpsertPostgres, [
                source,
                JSON.stringify([...fresh.values()]),
              ]),
            );
            for (const s of ids.rows) {
              pending.set(
                source,
                {
                  resourceId: s.resource_id,
                  provider: s.provider,
                  accountId: s.account_id,
                  service: s.service,
                  region: s.region,
                  tagGroup: s.tag_group,
                },
                Number(s.id),
              );
            }
          }
          // The last row of a repeated (series, day) wins: one statement must not touch a row twice.
          const costs = new Map<string, unknown[]>();
          for (let i = from; i < to; i += 1) {
            const r = rows[i] as CostRow;
            const id = idOf(r);
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
          const result = await trx.executeQuery<{ created_pull: number; changed_pull: number }>(
            CompiledQuery.raw(costsUpsertPostgres, [pullId, json]),
          );
          for (const row of result.rows) {
            if (Number(row.created_pull) === pullId) inserted += 1;
            else if (Number(row.changed_pull) === pullId) changed += 1;
            else unchanged += 1;
          }
        }
      });
      seriesIds.merge(pending);
      if (pending.size > 0) seriesAddedSinceAnalyze = true;
      return { inserted, changed, unchanged };
    },
    async removeUnseen(source, pullId, fromDay, toDay) {
      if (seriesAddedSinceAnalyze) {
        // Without statistics PostgreSQL takes a fresh billing_series for a few rows and walks
        // the chunk's day range once per series; a pull that stored series refreshes them.
        seriesAddedSinceAnalyze = false;
        await sql`analyze billing_series`.execute(db);
      }
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
      // Two lookups instead of a join, so no planner can pick a day range scan over every
      // resource's rows: the resource's series first, then one key per (day, series).
      const sqlite = sqliteFastPath();
      const series =
        sqlite !== undefined
          ? sqlite.seriesOfResource(source, resourceId)
          : await db
              .selectFrom("billing_series")
              .select(["id", "provider", "service", "region"])
              .where("source", "=", source)
              .where("resource_id", "=", resourceId)
              .execute();
      if (series.length === 0) return [];
      let first = fromDay;
      let end = toDayExclusive;
      if (daysBetween(first, end) > longRangeDays) {
        // A long range is clipped to the stored days first, so ten years cost no more than
        // the days that hold data.
        // Two subqueries: each is one end of the key, where min and max together would scan.
        const bounds = await db
          .selectNoFrom((eb) => [
            eb
              .selectFrom("billing_costs")
              .select((inner) => inner.fn.min("day").as("d"))
              .as("first"),
            eb
              .selectFrom("billing_costs")
              .select((inner) => inner.fn.max("day").as("d"))
              .as("last"),
          ])
          .executeTakeFirst();
        if (!bounds?.first || !bounds.last) return [];
        if (bounds.first > first) first = bounds.first;
        const afterLast = addDays(bounds.last, 1);
        if (afterLast < end) end = afterLast;
        if (first >= end) return [];
      }
      const days = dayList(first, end);
      const ids = series.map((s) => Number(s.id));
      const byId = new Map(series.map((s) => [Number(s.id), s]));
      const rows: CostTuple[] =
        sqlite !== undefined
          ? sqlite.costsOfSeries(days.json, ids)
          : (
              await db.executeQuery<CostOfSeriesRow>(
                CompiledQuery.raw(costsOfSeriesSql, [days.array, ids]),
              )
            ).rows.map((r) => [
              Number(r.series_id),
              r.day,
              r.amount,
              r.currency,
              r.usage_amount,
              r.usage_unit,
              r.tags,
            ]);
      const out: StoredCost[] = new Array(rows.length);
      for (let k = 0; k < rows.length; k += 1) {
        const [seriesId, day, amount, currency, usageAmount, usageUnit, tagsJson] = rows[
          k
        ] as CostTuple;
        const s = byId.get(seriesId);
        out[k] = {
          day,
          resourceId,
          provider: s?.provider ?? "",
          service: s?.service ?? "",
          region: s?.region ?? "",
          amount,
          currency,
          usageAmount,
          usageUnit,
          tagsJson,
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

// Ranges longer than this are clipped to the stored days before the lookups.
const longRangeDays = 400;

interface DayList {
  readonly array: readonly string[];
  readonly json: string;
}

interface CostOfSeriesRow {
  series_id: number;
  day: string;
  amount: string;
  currency: string;
  usage_amount: string | null;
  usage_unit: string | null;
  tags: string;
}

interface SeriesRow {
  id: number;
  resource_id: string;
  provider: string;
  account_id: string;
  service: string;
  region: string;
  tag_group: string;
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
