import type { Generated } from "kysely";

/** Row shape of `billing_series`: one row per distinct set of dimensions of a source. */
export interface SeriesTable {
  id: Generated<number>;
  source: string;
  resource_id: string;
  provider: string;
  account_id: string;
  service: string;
  region: string;
  tag_group: string;
}

/** Row shape of `billing_costs`: one row per series and day. */
export interface CostsTable {
  series_id: number;
  day: string;
  amount: string;
  currency: string;
  usage_amount: string | null;
  usage_unit: string | null;
  tags: string;
  revision: number;
  seen_pull: number;
  created_pull: number;
  changed_pull: number;
}

/** Row shape of `billing_pull_state`: one row per source. */
export interface PullStateTable {
  source: string;
  high_water_day: string | null;
  last_success_at: string | null;
  last_summary: string | null;
  pull_generation: number;
}

/** The billing store's tables, for Kysely. */
export interface BillingDatabase {
  billing_series: SeriesTable;
  billing_costs: CostsTable;
  billing_pull_state: PullStateTable;
}
