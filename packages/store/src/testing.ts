import { randomBytes } from "node:crypto";
import pg from "pg";

/** The PostgreSQL server tests use: the machine's own, overridable for other setups. */
export const testPostgresAdminUrl =
  process.env.COSTPLUGIN_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** A throw-away PostgreSQL database for one test file. */
export interface TestPostgresDatabase {
  /** Connection URL of the new, empty database. */
  readonly url: string;
  /** Drops the database (closing what is still connected to it). */
  drop(): Promise<void>;
}

/**
 * Creates an empty database on the test PostgreSQL server. Fails loudly when the server is not
 * reachable: store tests must run against PostgreSQL, never be skipped.
 */
export async function createTestPostgresDatabase(): Promise<TestPostgresDatabase> {
  const name = `costplugin_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: testPostgresAdminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(testPostgresAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: testPostgresAdminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
