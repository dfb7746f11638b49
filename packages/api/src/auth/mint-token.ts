import { randomUUID } from "node:crypto";
import { createSigner } from "fast-jwt";
import { secondsFromDuration } from "../duration.js";
import type { Role } from "./roles.js";

/** Options of `mintToken`. */
export interface MintTokenOptions {
  /** HS256 secret (`COSTPLUGIN_JWT_SECRET`). */
  readonly secret: string;
  /** The role granted, carried in the `roles` claim. */
  readonly role: Role;
  /** The `sub` claim. Default `local-cli`. */
  readonly sub?: string;
  /** Lifetime such as `15m`, `1h`, `7d`. Default `1h`. */
  readonly ttl?: string;
  /** `iss` claim; set it when the API enforces an issuer. */
  readonly issuer?: string;
  /** `aud` claim; set it when the API enforces an audience. */
  readonly audience?: string;
  /** Issue time in milliseconds since the epoch. Default now. */
  readonly now?: number;
}

/** Options of `signAccessToken`. */
export interface AccessTokenOptions {
  readonly secret: string;
  readonly sub: string;
  readonly roles: readonly Role[];
  readonly ttlSeconds: number;
  readonly issuer?: string;
  readonly audience?: string;
  /** Further claims (such as `client_id` and `scope`). */
  readonly claims?: Readonly<Record<string, unknown>>;
  /** Issue time in milliseconds since the epoch. Default now. */
  readonly now?: number;
}

/** Signs an HS256 access token with `sub`, `roles`, `iat`, `exp`, a unique `jti` and optional `iss`/`aud`. */
export function signAccessToken(options: AccessTokenOptions): string {
  const sign = createSigner({
    key: options.secret,
    algorithm: "HS256",
    expiresIn: options.ttlSeconds * 1000,
    clockTimestamp: options.now,
    jti: randomUUID(),
    ...(options.issuer ? { iss: options.issuer } : {}),
    ...(options.audience ? { aud: options.audience } : {}),
  });
  return sign({ ...options.claims, sub: options.sub, roles: [...options.roles] });
}

/** Signs an HS256 token for the API with a `roles` claim, an expiry and a unique `jti`. */
export function mintToken(options: MintTokenOptions): string {
  return signAccessToken({
    secret: options.secret,
    sub: options.sub ?? "local-cli",
    roles: [options.role],
    ttlSeconds: secondsFromDuration(options.ttl ?? "1h"),
    issuer: options.issuer,
    audience: options.audience,
    now: options.now,
  });
}
