import type { Kysely } from "kysely";
import type { Clock } from "../clock.js";
import { fromJson } from "./api-store.js";
import type { ApiDatabase } from "./schema.js";

/** A stored configuration document with its last change. */
export interface StoredSettings<T> {
  readonly config: T;
  readonly updated_at: string;
}

/** Model and processor configurations in the database. */
export interface SettingsStore {
  /** The stored configuration of a model, if any. */
  model<T>(modelId: string): Promise<StoredSettings<T> | undefined>;
  /** Stores the configuration of a model. */
  saveModel(modelId: string, config: unknown): Promise<string>;
  /** The stored configuration of a processor type, if any. */
  processor<T>(type: string): Promise<StoredSettings<T> | undefined>;
  /** Stores the configuration of a processor type. */
  saveProcessor(type: string, config: unknown): Promise<string>;
}

/** Creates the settings store. */
export function createSettingsStore(db: Kysely<ApiDatabase>, clock: Clock): SettingsStore {
  return {
    async model<T>(modelId: string) {
      const row = await db
        .selectFrom("api_model_settings")
        .select(["config", "updated_at"])
        .where("model_id", "=", modelId)
        .executeTakeFirst();
      return row ? { config: fromJson<T>(row.config), updated_at: row.updated_at } : undefined;
    },
    async saveModel(modelId, config) {
      const updated_at = clock.now().toISOString();
      const text = JSON.stringify(config);
      await db
        .insertInto("api_model_settings")
        .values({ model_id: modelId, config: text, updated_at })
        .onConflict((oc) => oc.column("model_id").doUpdateSet({ config: text, updated_at }))
        .execute();
      return updated_at;
    },
    async processor<T>(type: string) {
      const row = await db
        .selectFrom("api_processor_settings")
        .select(["config", "updated_at"])
        .where("type", "=", type)
        .executeTakeFirst();
      return row ? { config: fromJson<T>(row.config), updated_at: row.updated_at } : undefined;
    },
    async saveProcessor(type, config) {
      const updated_at = clock.now().toISOString();
      const text = JSON.stringify(config);
      await db
        .insertInto("api_processor_settings")
        .values({ type, config: text, updated_at })
        .onConflict((oc) => oc.column("type").doUpdateSet({ config: text, updated_at }))
        .execute();
      return updated_at;
    },
  };
}
