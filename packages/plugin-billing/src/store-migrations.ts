import type { Dialect } from "@costplugin/store";
import type { Kysely, Migration } from "kysely";
import { sql } from "kysely";

/** The table recording which billing migrations ran (its own, so stores can share a database). */
export const billingMigrationsTable = "billing_migrations";

/**
 * Versioned migrations of the billing store.
 *
 * `billing_series` holds each distinct (source, resource_id, provider, account_id, service,
 * region, tag_group) once; `billing_costs` holds one row per series and day. Repeating the
 * dimensions on every daily row would make the table several times larger.
 *
 * `0002` keys `billing_costs` by (day, series_id), on SQLite as a clustered (`without rowid`)
 * table, and drops the separate `day` index. The vendor sends rows day by day, so every page
 * lands at the end of the key order: a commit writes a few new pages instead of touching a leaf
 * of a (series_id, day) index for every series, which made pulls four times slower on millions
 * of rows. GetActualCost reads one key per (day, series) of the resource; chunk reconciliation
 * and projections read a day range.
 */
export function createBillingMigrations(dialect: Dialect): Readonly<Record<string, Migration>> {
  return {
    "0001_billing_store": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("billing_series")
          .addColumn("id", "integer", (c) =>
            dialect === "sqlite"
              ? c.primaryKey().notNull()
              : c.primaryKey().generatedByDefaultAsIdentity(),
          )
          .addColumn("source", "text", (c) => c.notNull())
          .addColumn("resource_id", "text", (c) => c.notNull())
          .addColumn("provider", "text", (c) => c.notNull())
          .addColumn("account_id", "text", (c) => c.notNull())
          .addColumn("service", "text", (c) => c.notNull())
          .addColumn("region", "text", (c) => c.notNull())
          .addColumn("tag_group", "text", (c) => c.notNull())
          .addUniqueConstraint("billing_series_key", [
            "source",
            "resource_id",
            "provider",
            "account_id",
            "service",
            "region",
            "tag_group",
          ] as never)
          .execute();
        await db.schema
          .createTable("billing_costs")
          .addColumn("series_id", "integer", (c) =>
            c.notNull().references("billing_series.id").onDelete("cascade"),
          )
          .addColumn("day", "text", (c) => c.notNull())
          .addColumn("amount", "text", (c) => c.notNull())
          .addColumn("currency", "text", (c) => c.notNull())
          .addColumn("usage_amount", "text")
          .addColumn("usage_unit", "text")
          .addColumn("tags", "text", (c) => c.notNull())
          .addColumn("revision", "integer", (c) => c.notNull())
          .addColumn("seen_pull", "integer", (c) => c.notNull())
          .addColumn("created_pull", "integer", (c) => c.notNull())
          .addColumn("changed_pull", "integer", (c) => c.notNull())
          .addPrimaryKeyConstraint("billing_costs_pk", ["series_id", "day"] as never)
          .execute();
        await db.schema
          .createIndex("billing_costs_day")
          .on("billing_costs")
          .column("day")
          .execute();
        await db.schema
          .createTable("billing_pull_state")
          .addColumn("source", "text", (c) => c.primaryKey())
          .addColumn("high_water_day", "text")
          .addColumn("last_success_at", "text")
          .addColumn("last_summary", "text")
          .addColumn("pull_generation", "integer", (c) => c.notNull().defaultTo(0))
          .execute();
      },
    },
    "0002_billing_costs_by_day": {
      async up(db: Kysely<unknown>) {
        if (dialect === "postgres") {
          await sql`alter table billing_costs drop constraint billing_costs_pk`.execute(db);
          await sql`alter table billing_costs add constraint billing_costs_pk primary key (day, series_id)`.execute(
            db,
          );
          await sql`drop index billing_costs_day`.execute(db);
          return;
        }
        // SQLite cannot change a primary key in place: copy into the new layout.
        await sql`create table billing_costs_by_day (
  series_id integer not null references billing_series (id) on delete cascade,
  day text not null,
  amount text not null,
  currency text not null,
  usage_amount text,
  usage_unit text,
  tags text not null,
  revision integer not null,
  seen_pull integer not null,
  created_pull integer not null,
  changed_pull integer not null,
  constraint billing_costs_pk primary key (day, series_id)
) without rowid`.execute(db);
        await sql`insert into billing_costs_by_day select series_id, day, amount, currency, usage_amount, usage_unit, tags, revision, seen_pull, created_pull, changed_pull from billing_costs order by day, series_id`.execute(
          db,
        );
        await sql`drop table billing_costs`.execute(db);
        await sql`alter table billing_costs_by_day rename to billing_costs`.execute(db);
      },
    },
  };
}
