import { type Kysely, type Migration, Migrator } from "kysely";

/** Options of `migrateToLatest`. */
export interface MigrateOptions {
  /**
   * Versioned migrations by name; applied in name order, so prefix names with a sortable
   * version such as `0001_create_costs`.
   */
  readonly migrations: Readonly<Record<string, Migration>>;
  /**
   * The table recording applied migrations. Each component (billing store, REST API) uses its
   * own, so they can share one database without seeing each other's history.
   */
  readonly tableName: string;
}

/** Applies every pending migration; throws with the failing migration's name and cause. */
export async function migrateToLatest(db: Kysely<unknown>, options: MigrateOptions): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => ({ ...options.migrations }) },
    migrationTableName: options.tableName,
    migrationLockTableName: `${options.tableName}_lock`,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    throw new Error(`migration ${failed} failed: ${String((error as Error).message ?? error)}`, {
      cause: error,
    });
  }
}
