import { createHash } from "node:crypto";
import { readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import type { Kysely } from "kysely";
import { sql } from "kysely";

/** Thrown when another pull of the same source is running. */
export class PullLockedError extends Error {
  override readonly name = "PullLockedError";
}

/** Runs `work` while holding the pull lock of `source`; refuses at once if it is held. */
export type PullLock = <T>(source: string, work: () => Promise<T>) => Promise<T>;

const heldInProcess = new Set<string>();

/**
 * A lock for the embedded store: a file next to the database, created exclusively and holding
 * the owner's pid and host. A file left by a process that no longer exists on this host (a pull
 * killed with SIGKILL) is taken over, so a killed pull can be rerun at once.
 */
export function createFilePullLock(databasePath: string): PullLock {
  return async (source, work) => {
    const path = `${databasePath}.pull-${createHash("sha256").update(source).digest("hex").slice(0, 16)}.lock`;
    acquireFile(path, source);
    try {
      return await work();
    } finally {
      try {
        unlinkSync(path);
      } catch {
        // Already gone: nothing to release.
      }
    }
  };
}

function acquireFile(path: string, source: string): void {
  const me = JSON.stringify({
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
  });
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(path, me, { flag: "wx" });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    let owner: { pid?: number; host?: string; since?: string } = {};
    try {
      owner = JSON.parse(readFileSync(path, "utf8")) as typeof owner;
    } catch {
      // Unreadable or half-written: treated like an owner that is gone.
    }
    const alive =
      typeof owner.pid === "number" && owner.host === hostname()
        ? processExists(owner.pid)
        : owner.host !== undefined;
    if (alive) {
      throw new PullLockedError(
        `another pull of source "${source}" is running (pid ${owner.pid ?? "?"} on ${owner.host ?? "?"} since ${owner.since ?? "?"}): wait for it to finish; if that process is gone, delete ${path}`,
      );
    }
    try {
      unlinkSync(path);
    } catch {
      // Someone else removed it first; the next attempt decides.
    }
  }
  throw new PullLockedError(
    `another pull of source "${source}" took the lock at the same moment: wait for it to finish`,
  );
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A lock for an in-memory store: only this process can see the data, so a set suffices. */
export function createMemoryPullLock(): PullLock {
  return async (source, work) => {
    if (heldInProcess.has(source)) {
      throw new PullLockedError(`another pull of source "${source}" is running in this process`);
    }
    heldInProcess.add(source);
    try {
      return await work();
    } finally {
      heldInProcess.delete(source);
    }
  };
}

/**
 * A lock for PostgreSQL: a session advisory lock on a connection held for the whole pull. The
 * server releases it when that session ends, so a killed pull never leaves a stale lock.
 */
export function createAdvisoryPullLock(db: Kysely<unknown>): PullLock {
  return (source, work) =>
    db.connection().execute(async (connection) => {
      const key = advisoryKey(source);
      const { rows } = await sql<{
        locked: boolean;
      }>`select pg_try_advisory_lock(${key}::bigint) as locked`.execute(connection);
      if (rows[0]?.locked !== true) {
        throw new PullLockedError(
          `another pull of source "${source}" is running (it holds the PostgreSQL advisory lock): wait for it to finish`,
        );
      }
      try {
        return await work();
      } finally {
        await sql`select pg_advisory_unlock(${key}::bigint)`.execute(connection).catch(() => {});
      }
    });
}

function advisoryKey(source: string): string {
  const digest = createHash("sha256").update(`costplugin-billing:${source}`).digest();
  return digest.readBigInt64BE(0).toString();
}
