import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { mintToken } from "./auth/mint-token.js";
import type { Clock } from "./clock.js";
import { secondsFromDuration } from "./duration.js";

/** How bearer tokens are verified. At least one of `secret`, `publicKey`, `jwksUrl` is set. */
export interface AuthOptions {
  /** HS256 shared secret; also signs the tokens of the OAuth endpoint and the CLI. */
  readonly secret?: string;
  /** PEM public key (RSA or EC) verifying RS256/ES256 tokens of an identity provider. */
  readonly publicKey?: string;
  /** JWKS URL of an identity provider; keys are fetched by `kid` and cached. */
  readonly jwksUrl?: string;
  /** When set, the `iss` claim must equal it. */
  readonly issuer?: string;
  /** When set, the `aud` claim must contain it. */
  readonly audience?: string;
  /** Lifetime of tokens issued by `POST /oauth/token`, in seconds. Default 3600. */
  readonly oauthTokenTtlSeconds?: number;
  /** How long a fetched JWKS is used before it is fetched again, in milliseconds. Default 600000 (10 minutes). */
  readonly jwksCacheTtlMs?: number;
  /**
   * Least time between two JWKS fetches caused by tokens naming a `kid` the cached set lacks,
   * in milliseconds. Default 30000: made-up `kid`s cannot make the API hammer the identity
   * provider, and a newly published key is picked up within this time.
   */
  readonly jwksMissCooldownMs?: number;
  /** Allowed clock skew when checking `exp` and `nbf`, in milliseconds. Default 30000. */
  readonly clockToleranceMs?: number;
}

/** One remote model provider, enabled because its API key is configured. */
export interface ProviderOptions {
  /** The provider's API key; never logged, never returned, redacted from recorded errors. */
  readonly apiKey: string;
  /** Base URL of the provider's API (a stand-in server in tests). */
  readonly baseUrl: string;
  /** The provider's model names offered as `<provider>:<name>`. */
  readonly models: readonly string[];
}

/** The remote model providers; a missing entry means the provider is unavailable. */
export interface ModelProvidersOptions {
  /** OpenAI-compatible chat completions (`POST {baseUrl}/chat/completions`). */
  readonly openai?: ProviderOptions;
  /** Anthropic messages (`POST {baseUrl}/v1/messages`). */
  readonly anthropic?: ProviderOptions;
  /** Google Gemini (`POST {baseUrl}/v1beta/models/{model}:generateContent`). */
  readonly gemini?: ProviderOptions;
}

/** Rate limiting per bearer token (per client address for anonymous routes). */
export interface RateLimitOptions {
  /** Requests allowed per window. */
  readonly max: number;
  /** Window length in milliseconds. */
  readonly timeWindowMs: number;
  /** Redis URL shared by replicas; when absent, counters live in this process. */
  readonly redisUrl?: string;
  /** Key prefix in Redis, so several deployments can share one server. Default `costplugin-rl:`. */
  readonly redisNamespace?: string;
}

/** Retry with exponential backoff for transient failures (model calls, webhooks). */
export interface RetryOptions {
  /** Attempts in total, the first included. Default 3. */
  readonly maxAttempts: number;
  /** Delay before the second attempt in milliseconds; doubles each time. Default 500. */
  readonly initialDelayMs: number;
  /** Upper bound of one delay in milliseconds. Default 10000. */
  readonly maxDelayMs: number;
}

/** Which engine fires scheduled runs. */
export type SchedulerEngine = "local" | "pg-boss" | "off";

/** Options of `fastifyApiPlugin`, parsed once (usually by `apiOptionsFromEnv`). */
export interface ApiOptions {
  /** Path prefix of every route. Default `/api/v1`. */
  readonly prefix?: string;
  /** SQLite file path, `:memory:` or a `postgres://` URL. */
  readonly databaseUrl: string;
  /** Token verification. */
  readonly auth: AuthOptions;
  /** Remote model providers; the offline model is always available. Default none. */
  readonly providers?: ModelProvidersOptions;
  /** Directory under which the file processor may write; its `directory` is relative to it. */
  readonly fileProcessorRoot?: string;
  /** Rate limiting, or `false` to turn it off. Default 300 requests per minute, in memory. */
  readonly rateLimit?: RateLimitOptions | false;
  /** Largest accepted request body in bytes. Default 1 MiB; larger bodies get 413. */
  readonly bodyLimit?: number;
  /** `local` (one process, croner), `pg-boss` (several replicas on PostgreSQL) or `off`. Default `local` on SQLite, `pg-boss` on PostgreSQL. */
  readonly scheduler?: SchedulerEngine;
  /** Retries of model calls and webhook deliveries. */
  readonly retry?: Partial<RetryOptions>;
  /** Time source; tests pass a manual clock. Default the system clock. */
  readonly clock?: Clock;
  /** HTTP client for model providers and webhooks. Default the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** pg-boss polling interval in seconds (minimum 0.5). Default 2. */
  readonly jobPollingIntervalSeconds?: number;
  /**
   * How long a pg-boss job may stay active before it is taken for abandoned (its replica died)
   * and retried, in seconds. Default: computed per run as the longest the run can take with the
   * current model, fallback and processor configuration (every attempt timing out, every
   * backoff at its longest) plus 60 s, so a live run is never taken over while a dead
   * replica's run is retried as soon as it safely can be. Set it only to shorten recovery in
   * tests; a value below the longest run lets a slow run be performed twice.
   */
  readonly jobExpireSeconds?: number;
  /**
   * How often pg-boss looks for abandoned jobs, in seconds (minimum 1). Default 60. One
   * replica at a time does it.
   */
  readonly jobMaintenanceIntervalSeconds?: number;
  /**
   * Serve the browsable docs page at `<prefix>/docs/`. Default true. The OpenAPI document at
   * `<prefix>/openapi.json` is always served.
   */
  readonly docs?: boolean;
}

/** What `apiOptionsFromEnv` returns. */
export interface ApiConfigFromEnv {
  /** The parsed options. */
  readonly options: ApiOptions;
  /**
   * Present only when no signing configuration was set: a secret created for this run and an
   * admin token signed with it, for the main job to print once.
   */
  readonly generated?: { readonly secret: string; readonly adminToken: string };
}

/** Environment variables read by `apiOptionsFromEnv`. */
export type ApiEnv = Readonly<Record<string, string | undefined>>;

/** Default SQLite file of the API store. */
export const defaultDatabaseUrl = join("data", "api.sqlite");
/** Default root of the file processor. */
export const defaultFileProcessorRoot = join("data", "responses");

function read(env: ApiEnv, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

function positiveInteger(env: ApiEnv, name: string, fallback: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  }
  return Number(raw);
}

function url(env: ApiEnv, name: string, fallback: string): string {
  const raw = read(env, name) ?? fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new Error(`${name} must be an absolute http(s) URL`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new Error(`${name} must be an absolute http(s) URL`);
  }
  return raw.replace(/\/+$/, "");
}

function provider(
  env: ApiEnv,
  name: string,
  keyNames: string[],
  baseUrl: string,
  models: string,
): ProviderOptions | undefined {
  const apiKey = read(env, ...keyNames);
  if (apiKey === undefined) return undefined;
  const upper = name.toUpperCase();
  const list = (read(env, `COSTPLUGIN_${upper}_MODELS`) ?? models)
    .split(",")
    .map((m) => m.trim())
    .filter((m) => m !== "");
  for (const model of list) {
    if (!/^[A-Za-z0-9._\-/]+$/.test(model)) {
      throw new Error(`COSTPLUGIN_${upper}_MODELS has an invalid model name "${model}"`);
    }
  }
  return { apiKey, baseUrl: url(env, `COSTPLUGIN_${upper}_BASE_URL`, baseUrl), models: list };
}

/**
 * Reads the API configuration from environment variables (see the README for the table).
 * Throws an error naming the variable when a value is invalid; secret values never appear in it.
 */
export function apiOptionsFromEnv(env: ApiEnv): ApiConfigFromEnv {
  const secret = read(env, "COSTPLUGIN_JWT_SECRET");
  // A PEM in one environment line often carries its line breaks as the two characters "\n".
  const publicKey = env.COSTPLUGIN_JWT_PUBLIC_KEY?.trim().replaceAll("\\n", "\n") || undefined;
  const jwksUrl = read(env, "COSTPLUGIN_JWT_JWKS_URL");
  if (jwksUrl !== undefined) url(env, "COSTPLUGIN_JWT_JWKS_URL", jwksUrl);
  if (publicKey !== undefined && !publicKey.includes("-----BEGIN")) {
    throw new Error("COSTPLUGIN_JWT_PUBLIC_KEY must be a PEM public key");
  }
  if (secret !== undefined && Buffer.byteLength(secret) < 32) {
    throw new Error("COSTPLUGIN_JWT_SECRET must be at least 32 bytes long");
  }
  const issuer = read(env, "COSTPLUGIN_JWT_ISSUER");
  const audience = read(env, "COSTPLUGIN_JWT_AUDIENCE");
  const oauthTtl = read(env, "COSTPLUGIN_OAUTH_TOKEN_TTL");
  let oauthTokenTtlSeconds = 3600;
  if (oauthTtl !== undefined) {
    try {
      oauthTokenTtlSeconds = secondsFromDuration(oauthTtl);
    } catch (error) {
      throw new Error(`COSTPLUGIN_OAUTH_TOKEN_TTL: ${(error as Error).message}`);
    }
  }
  let generated: ApiConfigFromEnv["generated"];
  let signingSecret = secret;
  if (secret === undefined && publicKey === undefined && jwksUrl === undefined) {
    signingSecret = randomBytes(32).toString("base64url");
    generated = {
      secret: signingSecret,
      adminToken: mintToken({
        secret: signingSecret,
        role: "admin",
        sub: "local-admin",
        ttl: "12h",
        issuer,
        audience,
      }),
    };
  }
  const rateMax = positiveInteger(env, "COSTPLUGIN_RATE_LIMIT_MAX", 300);
  const rateWindow = positiveInteger(env, "COSTPLUGIN_RATE_LIMIT_WINDOW_SECONDS", 60);
  if (rateWindow === 0) throw new Error("COSTPLUGIN_RATE_LIMIT_WINDOW_SECONDS must be positive");
  const redisUrl = read(env, "COSTPLUGIN_REDIS_URL");
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    throw new Error("COSTPLUGIN_REDIS_URL must be a redis:// or rediss:// URL");
  }
  const scheduler = read(env, "COSTPLUGIN_SCHEDULER");
  if (scheduler !== undefined && !["local", "pg-boss", "off"].includes(scheduler)) {
    throw new Error('COSTPLUGIN_SCHEDULER must be "local", "pg-boss" or "off"');
  }
  const bodyLimit = positiveInteger(env, "COSTPLUGIN_API_BODY_LIMIT", 1_048_576);
  if (bodyLimit === 0) throw new Error("COSTPLUGIN_API_BODY_LIMIT must be positive");
  const providers: ModelProvidersOptions = {
    openai: provider(
      env,
      "openai",
      ["COSTPLUGIN_OPENAI_API_KEY", "OPENAI_API_KEY"],
      "https://api.openai.com/v1",
      "gpt-4o-mini",
    ),
    anthropic: provider(
      env,
      "anthropic",
      ["COSTPLUGIN_ANTHROPIC_API_KEY", "ANTHROPIC_API_KEY"],
      "https://api.anthropic.com",
      "claude-3-5-haiku-latest",
    ),
    gemini: provider(
      env,
      "gemini",
      ["COSTPLUGIN_GEMINI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"],
      "https://generativelanguage.googleapis.com",
      "gemini-2.0-flash",
    ),
  };
  const options: ApiOptions = {
    databaseUrl: read(env, "COSTPLUGIN_DATABASE_URL") ?? defaultDatabaseUrl,
    auth: { secret: signingSecret, publicKey, jwksUrl, issuer, audience, oauthTokenTtlSeconds },
    providers,
    fileProcessorRoot: read(env, "COSTPLUGIN_PROCESSOR_FILE_ROOT") ?? defaultFileProcessorRoot,
    rateLimit:
      rateMax === 0
        ? false
        : { max: rateMax, timeWindowMs: rateWindow * 1000, ...(redisUrl ? { redisUrl } : {}) },
    bodyLimit,
    ...(scheduler ? { scheduler: scheduler as SchedulerEngine } : {}),
  };
  return generated ? { options, generated } : { options };
}
