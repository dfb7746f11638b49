import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { Database as SqliteConnection } from "better-sqlite3";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";

/** Which engine a database runs on; query code branches on it only where SQL differs. */
export type Dialect = "sqlite" | "postgres";

/** Options of `openDatabase`. */
export interface DatabaseOptions {
  /**
   * Where the data lives: a `postgres://` or `postgresql://` URL for PostgreSQL, otherwise a
   * file path for the embedded SQLite store (its folder is created), or `:memory:`.
   */
  readonly url: string;
  /** Maximum PostgreSQL pool size. Default 10. Ignored for SQLite (one connection). */
  readonly maxConnections?: number;
}

/** An open database: the typed query builder plus what callers need to know about it. */
export interface Database<DB> {
  /** The typed query builder. */
  readonly db: Kysely<DB>;
  /** The engine behind `db`. */
  readonly dialect: Dialect;
  /**
   * The better-sqlite3 connection behind `db` on SQLite (undefined on PostgreSQL): an escape
   * hatch for hot paths that reuse prepared statements or run a synchronous transaction. It is
   * the same connection as `db`, so never use it while a Kysely transaction is open.
   */
  readonly sqlite?: SqliteConnection;
  /** Closes the connection or pool; the database is unusable afterwards. */
  close(): Promise<void>;
}

/** True when `url` names a PostgreSQL database rather than an embedded file. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** Opens the embedded store or a PostgreSQL pool, chosen by the URL. */
export function openDatabase<DB>(options: DatabaseOptions): Database<DB> {
  if (isPostgresUrl(options.url)) {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.maxConnections ?? 10,
    });
    // An idle client losing its server must not crash the process; the next query reconnects.
    pool.on("error", () => {});
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: "postgres", close: () => db.destroy() };
  }
  if (options.url !== ":memory:") mkdirSync(dirname(options.url), { recursive: true });
  const sqlite = new SQLite(options.url);
  // WAL lets readers (the server) work while a writer (a pull) commits; the busy timeout makes a
  // second writer wait instead of failing at once.
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("synchronous = NORMAL");
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: "sqlite", sqlite, close: () => db.destroy() };
}
