import type { Dialect } from "@costplugin/store";
import type { Kysely, Migration } from "kysely";

/** The table recording which billing migrations ran (its own, so stores can share a database). */
export const billingMigrationsTable = "billing_migrations";

/**
 * Versioned migrations of the billing store.
 *
 * `billing_series` holds each distinct (source, resource_id, provider, account_id, service,
 * region, tag_group) once; `billing_costs` holds one
 * row per series and day, keyed by (series_id, day). Repeating the dimensions on every daily row
 * would make the table and its key index several times larger; with the split, GetActualCost for
 * one resource over a year is a lookup of the resource's series plus one short index range scan
 * per series, and a pull writes small rows. The `day` index serves chunk reconciliation and
 * projections.
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
  };
}
