import type { FastifyReply, FastifyRequest } from "fastify";
import type { SelectQueryBuilder } from "kysely";
import { BadRequestError } from "./errors.js";

/** Default and largest page sizes of every list. */
export const defaultPageLimit = 50;
/** Largest `limit` a list accepts. */
export const maxPageLimit = 200;

/** A position in a list ordered by (created_at, id) descending: the last item of a page. */
export interface Cursor {
  readonly createdAt: string;
  readonly id: string;
}

/** Encodes a cursor as an opaque URL-safe string. */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id])).toString("base64url");
}

/** Decodes a cursor from `encodeCursor`; throws a 400 error when it is not one. */
export function decodeCursor(text: string): Cursor {
  try {
    if (!/^[A-Za-z0-9_-]{1,512}$/.test(text)) throw new Error("not base64url");
    const value: unknown = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === "string" &&
      typeof value[1] === "string" &&
      !Number.isNaN(Date.parse(value[0]))
    ) {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // reported below
  }
  throw new BadRequestError("cursor is not a cursor returned by this list");
}

/** One page of a list. */
export interface Page<T> {
  /** The items, newest first. */
  readonly items: T[];
  /** Pass as `cursor` to get the next page; null on the last page. */
  readonly next_cursor: string | null;
}

/**
 * Applies keyset pagination on (created_at, id) descending to `query`: items created later come
 * first, and a cursor resumes strictly after the last item seen, so rows inserted while a client
 * walks the list never make it see an item twice or skip one that existed when it started.
 */
export async function paginate<
  DB,
  TB extends keyof DB,
  Row extends { created_at: string; id: string },
>(
  query: SelectQueryBuilder<DB, TB, Row>,
  columns: { createdAt: string; id: string },
  page: { limit?: number; cursor?: string },
): Promise<{ rows: Row[]; nextCursor: string | null }> {
  const limit = page.limit ?? defaultPageLimit;
  // biome-ignore lint/suspicious/noExplicitAny: column references are built from trusted names
  let q = query as SelectQueryBuilder<any, any, Row>;
  if (page.cursor !== undefined) {
    const c = decodeCursor(page.cursor);
    q = q.where((eb) =>
      eb.or([
        eb(columns.createdAt, "<", c.createdAt),
        eb.and([eb(columns.createdAt, "=", c.createdAt), eb(columns.id, "<", c.id)]),
      ]),
    );
  }
  const rows = await q
    .orderBy(columns.createdAt, "desc")
    .orderBy(columns.id, "desc")
    .limit(limit + 1)
    .execute();
  const more = rows.length > limit;
  const items = more ? rows.slice(0, limit) : rows;
  const last = items[items.length - 1];
  return {
    rows: items,
    nextCursor: more && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
  };
}

/** Sets the `Link: <...>; rel="next"` header pointing at the next page, keeping other query parameters. */
export function setNextLink(
  request: FastifyRequest,
  reply: FastifyReply,
  nextCursor: string | null,
): void {
  if (nextCursor === null) return;
  const url = new URL(request.url, "http://localhost");
  url.searchParams.set("cursor", nextCursor);
  reply.header("link", `<${url.pathname}${url.search}>; rel="next"`);
}

/**
 * Cursor pagination over a fixed, ordered list (models, processors): the cursor names the last
 * item seen by its id.
 */
export function paginateList<T>(
  items: readonly T[],
  idOf: (item: T) => string,
  page: { limit?: number; cursor?: string },
): { rows: T[]; nextCursor: string | null } {
  const limit = page.limit ?? defaultPageLimit;
  let start = 0;
  if (page.cursor !== undefined) {
    const c = decodeCursor(page.cursor);
    const index = items.findIndex((item) => idOf(item) === c.id);
    if (index < 0) throw new BadRequestError("cursor is not a cursor returned by this list");
    start = index + 1;
  }
  const rows = items.slice(start, start + limit);
  const last = rows[rows.length - 1];
  const more = start + limit < items.length;
  return {
    rows,
    nextCursor:
      more && last ? encodeCursor({ createdAt: new Date(0).toISOString(), id: idOf(last) }) : null,
  };
}
