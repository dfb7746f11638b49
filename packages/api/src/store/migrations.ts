import type { Dialect } from "@costplugin/store";
import { type Kysely, type Migration, sql } from "kysely";

/** The table recording which API migrations ran. */
export const apiMigrationTable = "api_migrations";

/**
 * The API's migrations. Keys and timestamps are text compared byte-wise (`COLLATE "C"` on
 * PostgreSQL, SQLite's default), so keyset pagination orders the same on both engines.
 */
export function apiMigrations(dialect: Dialect): Record<string, Migration> {
  const key = dialect === "postgres" ? sql`text collate "C"` : sql`text`;
  const real = dialect === "postgres" ? "double precision" : "real";
  return {
    "0001_api": {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable("api_prompts")
          .addColumn("id", key, (c) => c.primaryKey())
          .addColumn("name", "text", (c) => c.notNull().unique())
          .addColumn("category", "text", (c) => c.notNull())
          .addColumn("description", "text", (c) => c.notNull())
          .addColumn("template", "text", (c) => c.notNull())
          .addColumn("variables", "text", (c) => c.notNull())
          .addColumn("created_at", key, (c) => c.notNull())
          .addColumn("updated_at", "text", (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex("api_prompts_page")
          .on("api_prompts")
          .columns(["created_at", "id"])
          .execute();
        await db.schema
          .createTable("api_tasks")
          .addColumn("id", key, (c) => c.primaryKey())
          .addColumn("name", "text", (c) => c.notNull().unique())
          .addColumn("description", "text", (c) => c.notNull())
          .addColumn("cron", "text")
          .addColumn("timezone", "text", (c) => c.notNull())
          .addColumn("prompt_id", "text", (c) => c.notNull())
          .addColumn("variables", "text", (c) => c.notNull())
          .addColumn("model_id", "text", (c) => c.notNull())
          .addColumn("processors", "text", (c) => c.notNull())
          .addColumn("state", "text", (c) => c.notNull())
          .addColumn("next_run_at", "text")
          .addColumn("created_at", key, (c) => c.notNull())
          .addColumn("updated_at", "text", (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex("api_tasks_page")
          .on("api_tasks")
          .columns(["created_at", "id"])
          .execute();
        await db.schema
          .createTable("api_responses")
          .addColumn("id", key, (c) => c.primaryKey())
          .addColumn("task_id", "text", (c) => c.notNull())
          .addColumn("task_name", "text", (c) => c.notNull())
          .addColumn("prompt_id", "text", (c) => c.notNull())
          .addColumn("rendered_prompt", "text", (c) => c.notNull())
          .addColumn("variables", "text", (c) => c.notNull())
          .addColumn("model_id", "text", (c) => c.notNull())
          .addColumn("output", "text")
          .addColumn("status", "text", (c) => c.notNull())
          .addColumn("error", "text")
          .addColumn("tokens_in", "integer", (c) => c.notNull())
          .addColumn("tokens_out", "integer", (c) => c.notNull())
          .addColumn("latency_ms", "integer")
          .addColumn("cost_estimate", sql.raw(real))
          .addColumn("attempts", "integer", (c) => c.notNull())
          .addColumn("trigger", "text", (c) => c.notNull())
          .addColumn("scheduled_for", "text")
          .addColumn("processor_results", "text", (c) => c.notNull())
          .addColumn("created_at", key, (c) => c.notNull())
          .addColumn("started_at", "text")
          .addColumn("finished_at", "text")
          .execute();
        await db.schema
          .createIndex("api_responses_page")
          .on("api_responses")
          .columns(["created_at", "id"])
          .execute();
        await db.schema
          .createIndex("api_responses_task")
          .on("api_responses")
          .columns(["task_id", "created_at"])
          .execute();
        await db.schema
          .createTable("api_model_settings")
          .addColumn("model_id", "text", (c) => c.primaryKey())
          .addColumn("config", "text", (c) => c.notNull())
          .addColumn("updated_at", "text", (c) => c.notNull())
          .execute();
        await db.schema
          .createTable("api_processor_settings")
          .addColumn("type", "text", (c) => c.primaryKey())
          .addColumn("config", "text", (c) => c.notNull())
          .addColumn("updated_at", "text", (c) => c.notNull())
          .execute();
        await db.schema
          .createTable("api_model_calls")
          .addColumn("id", "text", (c) => c.primaryKey())
          .addColumn("model_id", "text", (c) => c.notNull())
          .addColumn("purpose", "text", (c) => c.notNull())
          .addColumn("ok", "integer", (c) => c.notNull())
          .addColumn("tokens_in", "integer", (c) => c.notNull())
          .addColumn("tokens_out", "integer", (c) => c.notNull())
          .addColumn("latency_ms", "integer", (c) => c.notNull())
          .addColumn("cost_estimate", sql.raw(real))
          .addColumn("created_at", "text", (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex("api_model_calls_model")
          .on("api_model_calls")
          .columns(["model_id", "created_at"])
          .execute();
        await db.schema
          .createTable("api_oauth_clients")
          .addColumn("id", key, (c) => c.primaryKey())
          .addColumn("name", "text", (c) => c.notNull())
          .addColumn("secret_hash", "text", (c) => c.notNull())
          .addColumn("roles", "text", (c) => c.notNull())
          .addColumn("created_at", key, (c) => c.notNull())
          .execute();
      },
    },
  };
}
