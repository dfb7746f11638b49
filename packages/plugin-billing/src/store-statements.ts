import type { Dialect } from "@costplugin/store";

// On PostgreSQL a page travels as ONE JSON parameter (an array of arrays), so the SQL text is
// constant and short: no per-page statement building, no parameter limits, one round trip. (The
// embedded store writes row by row through prepared statements: see sqlite-fast-path.ts.)

/**
 * Inserts series not stored yet and returns the ids of all given series (the no-op update makes
 * RETURNING include those already there). Parameters: source, JSON rows of [resource_id,
 * provider, account_id, service, region, tag_group].
 */
export const seriesUpsertPostgres = `insert into billing_series (source, resource_id, provider, account_id, service, region, tag_group)
select $1, r->>0, r->>1, r->>2, r->>3, r->>4, r->>5 from json_array_elements($2::json) as r
on conflict (source, resource_id, provider, account_id, service, region, tag_group) do update set
source = excluded.source
returning id, resource_id, provider, account_id, service, region, tag_group`;

const differs =
  "(billing_costs.amount <> excluded.amount or billing_costs.currency <> excluded.currency or billing_costs.tags <> excluded.tags or billing_costs.usage_amount is distinct from excluded.usage_amount or billing_costs.usage_unit is distinct from excluded.usage_unit)";

/**
 * Upserts daily cost rows. Parameters: pull id, JSON rows of [series_id, day, amount, currency,
 * usage_amount, usage_unit, tags]. New rows get revision 1; a row whose values changed gets its
 * revision bumped and `changed_pull` set; every row gets `seen_pull`. RETURNING tells new,
 * changed and unchanged apart.
 */
export const costsUpsertPostgres = `insert into billing_costs (series_id, day, amount, currency, usage_amount, usage_unit, tags, revision, seen_pull, created_pull, changed_pull)
select (r->>0)::integer, r->>1, r->>2, r->>3, r->>4, r->>5, r->>6, 1, $1::integer, $1::integer, $1::integer from json_array_elements($2::json) as r
on conflict (day, series_id) do update set
amount = excluded.amount, currency = excluded.currency, usage_amount = excluded.usage_amount,
usage_unit = excluded.usage_unit, tags = excluded.tags, seen_pull = excluded.seen_pull,
revision = case when ${differs} then billing_costs.revision + 1 else billing_costs.revision end,
changed_pull = case when ${differs} then excluded.changed_pull else billing_costs.changed_pull end
returning created_pull, changed_pull`;

/**
 * Rows of some series on some days, ordered by day. Parameters: the days and the series ids
 * (SQLite: two JSON arrays; PostgreSQL: two arrays). Costs are keyed by (day, series_id), so this
 * is one key lookup per (day, series) pair, whatever the size of the table.
 */
export function costsOfSeriesSelect(dialect: Dialect): string {
  const filter =
    dialect === "postgres"
      ? "day = any($1::text[]) and series_id = any($2::integer[])"
      : "day in (select value from json_each(?)) and series_id in (select value from json_each(?))";
  return `select series_id, day, amount, currency, usage_amount, usage_unit, tags from billing_costs
where ${filter} order by day`;
}
