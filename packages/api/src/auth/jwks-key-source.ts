import { createPublicKey, type JsonWebKey } from "node:crypto";

/** Options of `createJwksKeySource`. */
export interface JwksKeySourceOptions {
  /** The identity provider's JWKS URL. */
  readonly url: string;
  /** How long a fetched key set is used before it is fetched again, in ms. Default 600000. */
  readonly ttlMs?: number;
  /**
   * Least time between two fetches caused by a `kid` the cached set lacks, in ms. Default
   * 30000. Tokens naming unknown keys then cost one fetch per this period, however many arrive;
   * a key the provider has just added is found at the latest after it.
   */
  readonly missCooldownMs?: number;
  /** HTTP client. Default the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** Milliseconds since the epoch. Default `Date.now`. */
  readonly now?: () => number;
}

/** Public keys of an identity provider by `kid`, as PEM. */
export interface JwksKeySource {
  /** The PEM public key for `kid` usable with `alg`; throws when there is none. */
  key(kid: string | undefined, alg: string): Promise<string>;
}

interface Key {
  readonly pem: string;
  readonly kty: string;
  readonly alg: string | undefined;
}

const ktyOf: Readonly<Record<string, string>> = { RS256: "RSA", ES256: "EC" };

/**
 * Fetches and caches an identity provider's key set (JWKS). The whole set is cached, so a
 * refresh caused by any token brings in every key the provider publishes; a `kid` absent from
 * the cached set causes a refresh at most once per `missCooldownMs`, so tokens with made-up
 * `kid`s cannot make the API hammer the provider. A failed refresh keeps the keys it had.
 */
export function createJwksKeySource(options: JwksKeySourceOptions): JwksKeySource {
  const ttl = options.ttlMs ?? 600_000;
  const cooldown = options.missCooldownMs ?? 30_000;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;
  let keys = new Map<string, Key>();
  let fetchedAt = Number.NEGATIVE_INFINITY;
  let refreshing: Promise<void> | undefined;

  async function load(): Promise<void> {
    const response = await fetchImpl(options.url, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`the key set answered HTTP ${response.status}`);
    const body = (await response.json()) as { keys?: unknown };
    if (!Array.isArray(body.keys)) throw new Error("the key set has no keys array");
    const next = new Map<string, Key>();
    for (const jwk of body.keys as Array<JsonWebKey & { kid?: unknown; use?: unknown }>) {
      if (typeof jwk.kid !== "string" || (jwk.use !== undefined && jwk.use !== "sig")) continue;
      try {
        const pem = createPublicKey({ key: jwk, format: "jwk" })
          .export({ type: "spki", format: "pem" })
          .toString();
        next.set(jwk.kid, {
          pem,
          kty: String(jwk.kty),
          alg: typeof jwk.alg === "string" ? jwk.alg : undefined,
        });
      } catch {
        // A key this runtime cannot read is left out; the others still count.
      }
    }
    keys = next;
  }

  function refresh(): Promise<void> {
    refreshing ??= load().finally(() => {
      // Failures count too: a provider that is down is not asked again at once.
      fetchedAt = now();
      refreshing = undefined;
    });
    return refreshing;
  }

  return {
    async key(kid, alg) {
      if (kid === undefined) throw new Error("the token names no key (kid)");
      const age = now() - fetchedAt;
      if (age >= ttl || (!keys.has(kid) && age >= cooldown)) {
        // With keys in hand, a failed refresh is not fatal: the cached set is used.
        await refresh().catch((error) => {
          if (keys.size === 0) throw error;
        });
      } else if (refreshing) {
        await refreshing.catch(() => {});
      }
      const key = keys.get(kid);
      if (key === undefined) throw new Error("no key of the identity provider has this kid");
      if (key.kty !== ktyOf[alg] || (key.alg !== undefined && key.alg !== alg)) {
        throw new Error("token algorithm is not accepted for this key");
      }
      return key.pem;
    },
  };
}
