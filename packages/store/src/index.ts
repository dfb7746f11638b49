export type { Database, DatabaseOptions, Dialect } from "./database.js";
export { isPostgresUrl, openDatabase } from "./database.js";
export type { MigrateOptions } from "./migrations.js";
export { migrateToLatest } from "./migrations.js";
