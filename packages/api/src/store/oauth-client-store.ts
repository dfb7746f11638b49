import { randomBytes, randomUUID, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import type { Kysely } from "kysely";
import type { Role } from "../auth/roles.js";
import type { Clock } from "../clock.js";
import { NotFoundError } from "../errors.js";
import { paginate } from "../pagination.js";
import { fromJson } from "./api-store.js";
import type { ApiDatabase, OAuthClientTable } from "./schema.js";

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
) => Promise<Buffer>;

/** An OAuth client as listed. */
export interface OAuthClient {
  readonly client_id: string;
  readonly name: string;
  readonly scopes: Role[];
  readonly created_at: string;
}

function toClient(row: OAuthClientTable): OAuthClient {
  return {
    client_id: row.id,
    name: row.name,
    scopes: fromJson<Role[]>(row.roles),
    created_at: row.created_at,
  };
}

async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(secret, salt, 32);
  return `scrypt$${salt.toString("base64url")}$${hash.toString("base64url")}`;
}

async function secretMatches(secret: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await scryptAsync(secret, Buffer.from(salt, "base64url"), expected.length);
  return timingSafeEqual(actual, expected);
}

// Compared against when the client id is unknown, so both cases take the same time.
const decoyHash = `scrypt$${randomBytes(16).toString("base64url")}$${randomBytes(32).toString("base64url")}`;

/** OAuth client-credentials clients; secrets are stored as scrypt hashes only. */
export interface OAuthClientStore {
  /** Creates a client; the returned secret is not stored and cannot be shown again. */
  create(name: string, scopes: readonly Role[]): Promise<OAuthClient & { client_secret: string }>;
  /** The client when `secret` is its secret, otherwise undefined. */
  authenticate(clientId: string, secret: string): Promise<OAuthClient | undefined>;
  /** A page of clients, newest first. */
  list(query: {
    limit?: number;
    cursor?: string;
  }): Promise<{ items: OAuthClient[]; nextCursor: string | null }>;
  /** Deletes a client; the tokens it obtained stop working (the API checks `exists`). 404 when missing. */
  delete(clientId: string): Promise<void>;
  /** The client (without its secret), or a 404 error. */
  get(clientId: string): Promise<OAuthClient>;
  /** True while the client exists. */
  exists(clientId: string): Promise<boolean>;
}

/** Creates the OAuth client store. */
export function createOAuthClientStore(db: Kysely<ApiDatabase>, clock: Clock): OAuthClientStore {
  return {
    async create(name, scopes) {
      const secret = randomBytes(32).toString("base64url");
      const row: OAuthClientTable = {
        id: `client_${randomUUID().replaceAll("-", "")}`,
        name,
        secret_hash: await hashSecret(secret),
        roles: JSON.stringify(scopes),
        created_at: clock.now().toISOString(),
      };
      await db.insertInto("api_oauth_clients").values(row).execute();
      return { ...toClient(row), client_secret: secret };
    },
    async authenticate(clientId, secret) {
      const row = await db
        .selectFrom("api_oauth_clients")
        .selectAll()
        .where("id", "=", clientId)
        .executeTakeFirst();
      const ok = await secretMatches(secret, row?.secret_hash ?? decoyHash);
      return row && ok ? toClient(row) : undefined;
    },
    async list(query) {
      const page = await paginate(
        db.selectFrom("api_oauth_clients").selectAll(),
        { createdAt: "created_at", id: "id" },
        query,
      );
      return { items: page.rows.map(toClient), nextCursor: page.nextCursor };
    },
    async delete(clientId) {
      const result = await db
        .deleteFrom("api_oauth_clients")
        .where("id", "=", clientId)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0)
        throw new NotFoundError(`client ${clientId} does not exist`);
    },
    async get(clientId) {
      const row = await db
        .selectFrom("api_oauth_clients")
        .selectAll()
        .where("id", "=", clientId)
        .executeTakeFirst();
      if (!row) throw new NotFoundError(`client ${clientId} does not exist`);
      return toClient(row);
    },
    async exists(clientId) {
      const row = await db
        .selectFrom("api_oauth_clients")
        .select("id")
        .where("id", "=", clientId)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
