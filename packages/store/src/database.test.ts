import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, migrateToLatest, openDatabase } from "./index.js";
import { createTestPostgresDatabase, type TestPostgresDatabase } from "./testing.js";

interface DB {
  notes: { id: string; body: string };
}

const migrations = {
  "0001_notes": {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable("notes")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("body", "text", (c) => c.notNull())
        .execute();
    },
  },
};

let pgDb: TestPostgresDatabase;
beforeAll(async () => {
  pgDb = await createTestPostgresDatabase();
});
afterAll(async () => {
  await pgDb?.drop();
});

const engines: Array<[string, () => string]> = [
  ["sqlite", () => join(mkdtempSync(join(tmpdir(), "store-")), "nested", "store.db")],
  ["postgres", () => pgDb.url],
];

describe.each(engines)("openDatabase on %s", (dialect, url) => {
  it("migrates once, upserts and reads back through one query layer", async () => {
    const database: Database<DB> = openDatabase<DB>({ url: url() });
    try {
      expect(database.dialect).toBe(dialect);
      await migrateToLatest(database.db as Kysely<unknown>, {
        migrations,
        tableName: "t_migrations",
      });
      await migrateToLatest(database.db as Kysely<unknown>, {
        migrations,
        tableName: "t_migrations",
      });
      for (const body of ["first", "second"]) {
        await database.db
          .insertInto("notes")
          .values({ id: "a", body })
          .onConflict((oc) => oc.column("id").doUpdateSet({ body }))
          .execute();
      }
      const rows = await database.db.selectFrom("notes").selectAll().execute();
      expect(rows).toEqual([{ id: "a", body: "second" }]);
    } finally {
      await database.close();
    }
  });

  it("exposes the SQLite connection behind the query builder, and none on PostgreSQL", async () => {
    const database = openDatabase<DB>({ url: url() });
    try {
      await migrateToLatest(database.db as Kysely<unknown>, {
        migrations,
        tableName: "t_migrations",
      });
      await database.db.insertInto("notes").values({ id: "raw", body: "shared" }).execute();
      if (dialect === "sqlite") {
        const row = database.sqlite?.prepare("select body from notes where id = ?").get("raw");
        expect(row).toEqual({ body: "shared" });
      } else {
        expect(database.sqlite).toBeUndefined();
      }
    } finally {
      await database.close();
    }
  });

  it("names the failing migration", async () => {
    const database = openDatabase<DB>({ url: url() });
    try {
      await expect(
        migrateToLatest(database.db as Kysely<unknown>, {
          tableName: "broken_migrations",
          migrations: {
            "0001_bad": {
              async up(db: Kysely<unknown>) {
                await sql`CREATE TABLE`.execute(db);
              },
            },
          },
        }),
      ).rejects.toThrow(/migration 0001_bad failed/);
    } finally {
      await database.close();
    }
  });
});
