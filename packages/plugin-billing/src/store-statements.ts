import type { Dialect } from "@costplugin/store";

// Both statements take their rows as ONE JSON parameter (an array of arrays), so the SQL text is
// constant and short: no per-page statement building, no parameter limits, one round trip.

/**
 * Inserts series not stored yet and returns the ids of all given series (the no-op update makes
 * RETURNING include those already there). Parameters: source, JSON rows of [resource_id,
 * provider, account_id, service, region, tag_group].
 */
export function seriesUpsert(dialect: Dialect): string {
  const source = dialect === "postgres" ? "$1" : "?";
  const rows = dialect === "postgres" ? "json_array_elements($2::json) as r" : "json_each(?) as r";
  const v = (i: number) => (dialect === "postgres" ? `r->>${i}` : `r.value->>${i}`);
  return `insert into billing_series (source, resource_id, provider, account_id, service, region, tag_group)
select ${source}, ${[0, 1, 2, 3, 4, 5].map(v).join(", ")} from ${rows} where true
on conflict (source, resource_id, provider, account_id, service, region, tag_group) do update set
source = excluded.source
returning id, resource_id, provider, account_id, service, region, tag_group`;
}

const differs =
  "(billing_costs.amount <> excluded.amount or billing_costs.currency <> excluded.currency or billing_costs.tags <> excluded.tags or billing_costs.usage_amount is distinct from excluded.usage_amount or billing_costs.usage_unit is distinct from excluded.usage_unit)";

/**
 * Upserts daily cost rows. Parameters: pull id (three times on SQLite, once on PostgreSQL),
 * JSON rows of [series_id, day, amount, currency, usage_amount, usage_unit, tags]. New rows get
 * revision 1; a row whose values changed gets its revision bumped and `changed_pull` set; every
 * row gets `seen_pull`. RETURNING tells new, changed and unchanged apart.
 */
export function costsUpsert(dialect: Dialect): string {
  const pg = dialect === "postgres";
  const pull = pg ? "$1::integer" : "?";
  const rows = pg ? "json_array_elements($2::json) as r" : "json_each(?) as r";
  const v = (i: number) => (pg ? `r->>${i}` : `r.value->>${i}`);
  const seriesId = pg ? `(${v(0)})::integer` : v(0);
  return `insert into billing_costs (series_id, day, amount, currency, usage_amount, usage_unit, tags, revision, seen_pull, created_pull, changed_pull)
select ${seriesId}, ${[1, 2, 3, 4, 5, 6].map(v).join(", ")}, 1, ${pull}, ${pull}, ${pull} from ${rows} where true
on conflict (series_id, day) do update set
amount = excluded.amount, currency = excluded.currency, usage_amount = excluded.usage_amount,
usage_unit = excluded.usage_unit, tags = excluded.tags, seen_pull = excluded.seen_pull,
revision = case when ${differs} then billing_costs.revision + 1 else billing_costs.revision end,
changed_pull = case when ${differs} then excluded.changed_pull else billing_costs.changed_pull end
returning created_pull, changed_pull`;
}
