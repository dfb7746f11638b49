import type { Database } from "@costplugin/store";
import type { CostRow } from "./cost-row.js";
import { epochDay } from "./day.js";
import type { SeriesCache } from "./series-cache.js";
import { createSeriesCache } from "./series-cache.js";
import { costsOfSeriesSelect } from "./store-statements.js";

/** The better-sqlite3 connection behind an embedded store. */
export type SqliteConnection = NonNullable<Database<unknown>["sqlite"]>;

/** How an upsert changed the store: rows new, restated, and stored before with the same values. */
export interface UpsertTally {
  inserted: number;
  changed: number;
  unchanged: number;
}

/** A stored series of a resource, as GetActualCost needs it. */
export interface ResourceSeries {
  readonly id: number;
  readonly provider: string;
  readonly service: string;
  readonly region: string;
}

/** One stored cost row: series id, day, amount, currency, usage amount, usage unit, tags JSON. */
export type CostTuple = [number, string, string, string, string | null, string | null, string];

/** The hot paths of the embedded store, on prepared statements that live as long as the store. */
export interface SqliteFastPath {
  /** `BillingStore.upsertRows` in one synchronous transaction; `series` learns new ids on commit. */
  upsertRows(
    source: string,
    pullId: number,
    rows: readonly CostRow[],
    series: SeriesCache,
  ): UpsertTally;
  /** The series of a resource. */
  seriesOfResource(source: string, resourceId: string): ResourceSeries[];
  /** Rows of the series on the given days (a JSON array), ordered by day. */
  costsOfSeries(daysJson: string, seriesIds: readonly number[]): CostTuple[];
}

// Days of the years 0000 to 9999 (all a row's day can be) and the first of them: a series id
// and a day make one safe integer while ids stay below 2^31.
const daysOfFourDigitYears = 4_194_304;
const firstEpochDay = -719_528;

const differs =
  "(billing_costs.amount <> excluded.amount or billing_costs.currency <> excluded.currency or billing_costs.tags <> excluded.tags or billing_costs.usage_amount is not excluded.usage_amount or billing_costs.usage_unit is not excluded.usage_unit)";

/**
 * Prepares the statements of the embedded store's hot paths once. A pull's page is written row
 * by row through one prepared upsert inside one transaction: no SQL text is built, compiled or
 * parsed per page, and no JSON is built per row (the PostgreSQL path sends a page as one JSON
 * parameter instead, to save round trips).
 */
export function createSqliteFastPath(sqlite: SqliteConnection): SqliteFastPath {
  const insertSeries = sqlite
    .prepare<[string, string, string, string, string, string, string], [number]>(
      `insert into billing_series (source, resource_id, provider, account_id, service, region, tag_group)
values (?, ?, ?, ?, ?, ?, ?)
on conflict (source, resource_id, provider, account_id, service, region, tag_group) do update set source = excluded.source
returning id`,
    )
    .raw(true);
  const upsertCost = sqlite
    .prepare<
      [
        number,
        string,
        string,
        string,
        string | null,
        string | null,
        string,
        number,
        number,
        number,
      ],
      [number, number]
    >(
      `insert into billing_costs (series_id, day, amount, currency, usage_amount, usage_unit, tags, revision, seen_pull, created_pull, changed_pull)
values (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)
on conflict (day, series_id) do update set
amount = excluded.amount, currency = excluded.currency, usage_amount = excluded.usage_amount,
usage_unit = excluded.usage_unit, tags = excluded.tags, seen_pull = excluded.seen_pull,
revision = case when ${differs} then billing_costs.revision + 1 else billing_costs.revision end,
changed_pull = case when ${differs} then excluded.changed_pull else billing_costs.changed_pull end
returning created_pull, changed_pull`,
    )
    .raw(true);
  const selectSeries = sqlite
    .prepare<[string, string], [number, string, string, string]>(
      "select id, provider, service, region from billing_series where source = ? and resource_id = ?",
    )
    .raw(true);
  const selectCosts = sqlite
    .prepare<[string, string], CostTuple>(costsOfSeriesSelect("sqlite"))
    .raw(true);

  const write = sqlite.transaction(
    (source: string, pullId: number, rows: readonly CostRow[], series: SeriesCache) => {
      const tally: UpsertTally = { inserted: 0, changed: 0, unchanged: 0 };
      const learned = createSeriesCache();
      const seriesId = (r: CostRow): number => {
        const known = learned.get(source, r) ?? series.get(source, r);
        if (known !== undefined) return known;
        const inserted = insertSeries.get(
          source,
          r.resourceId,
          r.provider,
          r.accountId,
          r.service,
          r.region,
          r.tagGroup,
        );
        if (inserted === undefined) throw new Error("series upsert returned no id");
        const id = Number(inserted[0]);
        learned.set(source, r, id);
        return id;
      };
      // The last row of a repeated (series, day) wins, so each stored row is counted once.
      const slots = new Map<number, number>();
      const ids: number[] = [];
      const picked: CostRow[] = [];
      for (const r of rows) {
        const id = seriesId(r);
        const key = id * daysOfFourDigitYears + epochDay(r.day) - firstEpochDay;
        const slot = slots.get(key);
        if (slot === undefined) {
          slots.set(key, picked.length);
          ids.push(id);
          picked.push(r);
        } else {
          picked[slot] = r;
        }
      }
      for (let i = 0; i < picked.length; i += 1) {
        const r = picked[i] as CostRow;
        const result = upsertCost.get(
          ids[i] as number,
          r.day,
          r.amount,
          r.currency,
          r.usageAmount,
          r.usageUnit,
          JSON.stringify(r.tags),
          pullId,
          pullId,
          pullId,
        );
        if (result === undefined) throw new Error("upsert returned no row");
        if (result[0] === pullId) tally.inserted += 1;
        else if (result[1] === pullId) tally.changed += 1;
        else tally.unchanged += 1;
      }
      return { tally, learned };
    },
  );

  return {
    upsertRows(source, pullId, rows, series) {
      // `immediate`: take the write lock up front, so a concurrent writer waits (busy timeout)
      // instead of failing when a read transaction would be upgraded.
      const { tally, learned } = write.immediate(source, pullId, rows, series);
      series.merge(learned);
      return tally;
    },
    seriesOfResource(source, resourceId) {
      return selectSeries
        .all(source, resourceId)
        .map(([id, provider, service, region]) => ({ id, provider, service, region }));
    },
    costsOfSeries(daysJson, seriesIds) {
      return selectCosts.all(daysJson, JSON.stringify(seriesIds));
    },
  };
}
