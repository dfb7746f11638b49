import { type Database, migrateToLatest, openDatabase } from "@costplugin/store";
import type { Kysely } from "kysely";
import { apiMigrations, apiMigrationTable } from "./migrations.js";
import type { ApiDatabase } from "./schema.js";

/** Opens the API's database at `url` and applies its migrations. */
export async function openApiDatabase(url: string): Promise<Database<ApiDatabase>> {
  const database = openDatabase<ApiDatabase>({ url });
  try {
    await migrateToLatest(database.db as Kysely<unknown>, {
      migrations: apiMigrations(database.dialect),
      tableName: apiMigrationTable,
    });
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/** True when `error` is a unique-constraint violation on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown };
  return (
    e?.code === "23505" ||
    e?.code === "SQLITE_CONSTRAINT_UNIQUE" ||
    e?.code === "SQLITE_CONSTRAINT_PRIMARYKEY"
  );
}

/** Parses a JSON column written by the API. */
export function fromJson<T>(text: string): T {
  return JSON.parse(text) as T;
}
