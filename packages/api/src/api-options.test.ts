import { createVerifier } from "fast-jwt";
import { describe, expect, it } from "vitest";
import { apiOptionsFromEnv } from "./api-options.js";

const secret = "s".repeat(40);

describe("apiOptionsFromEnv", () => {
  it("defaults to a SQLite file under ./data, 300 requests a minute and no remote provider", () => {
    const { options } = apiOptionsFromEnv({ COSTPLUGIN_JWT_SECRET: secret });
    expect(options).toMatchObject({
      databaseUrl: "data/api.sqlite",
      fileProcessorRoot: "data/responses",
      rateLimit: { max: 300, timeWindowMs: 60_000 },
      bodyLimit: 1_048_576,
      auth: { secret, oauthTokenTtlSeconds: 3600 },
      providers: { openai: undefined, anthropic: undefined, gemini: undefined },
    });
    expect(options.scheduler).toBeUndefined();
  });

  it("creates a secret for this run and a ready admin token when no signing configuration is set", () => {
    const config = apiOptionsFromEnv({});
    expect(config.generated?.secret).toHaveLength(43);
    expect(config.options.auth.secret).toBe(config.generated?.secret);
    const payload = createVerifier({ key: config.generated?.secret ?? "" })(
      config.generated?.adminToken ?? "",
    );
    expect(payload).toMatchObject({ roles: ["admin"], sub: "local-admin" });
    expect(apiOptionsFromEnv({}).generated?.secret).not.toBe(config.generated?.secret);
  });

  it("creates nothing when a public key or a JWKS URL is configured", () => {
    const pem = "-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----";
    expect(apiOptionsFromEnv({ COSTPLUGIN_JWT_PUBLIC_KEY: pem }).generated).toBeUndefined();
    const oneLine = apiOptionsFromEnv({ COSTPLUGIN_JWT_PUBLIC_KEY: pem.replaceAll("\n", "\\n") });
    expect(oneLine.options.auth.publicKey).toBe(pem);
    const jwks = apiOptionsFromEnv({
      COSTPLUGIN_JWT_JWKS_URL: "https://id.example/keys",
      COSTPLUGIN_JWT_ISSUER: "https://id.example",
      COSTPLUGIN_JWT_AUDIENCE: "api",
    });
    expect(jwks.generated).toBeUndefined();
    expect(jwks.options.auth).toMatchObject({
      jwksUrl: "https://id.example/keys",
      issuer: "https://id.example",
      audience: "api",
      secret: undefined,
    });
  });

  it("enables a provider by its key, with its base URL and model list", () => {
    const { options } = apiOptionsFromEnv({
      COSTPLUGIN_JWT_SECRET: secret,
      OPENAI_API_KEY: "sk-1",
      COSTPLUGIN_OPENAI_BASE_URL: "http://127.0.0.1:9999/v1/",
      COSTPLUGIN_OPENAI_MODELS: "gpt-a, gpt-b",
      COSTPLUGIN_ANTHROPIC_API_KEY: "ak",
      GOOGLE_API_KEY: "gk",
    });
    expect(options.providers?.openai).toEqual({
      apiKey: "sk-1",
      baseUrl: "http://127.0.0.1:9999/v1",
      models: ["gpt-a", "gpt-b"],
    });
    expect(options.providers?.anthropic).toMatchObject({
      baseUrl: "https://api.anthropic.com",
      models: ["claude-3-5-haiku-latest"],
    });
    expect(options.providers?.gemini).toMatchObject({
      apiKey: "gk",
      baseUrl: "https://generativelanguage.googleapis.com",
    });
  });

  it("reads the database, Redis, rate limit, scheduler and body limit settings", () => {
    const { options } = apiOptionsFromEnv({
      COSTPLUGIN_JWT_SECRET: secret,
      COSTPLUGIN_DATABASE_URL: "postgres://db/costs",
      COSTPLUGIN_REDIS_URL: "redis://127.0.0.1:6379",
      COSTPLUGIN_RATE_LIMIT_MAX: "10",
      COSTPLUGIN_RATE_LIMIT_WINDOW_SECONDS: "5",
      COSTPLUGIN_SCHEDULER: "pg-boss",
      COSTPLUGIN_API_BODY_LIMIT: "2048",
      COSTPLUGIN_OAUTH_TOKEN_TTL: "15m",
    });
    expect(options).toMatchObject({
      databaseUrl: "postgres://db/costs",
      rateLimit: { max: 10, timeWindowMs: 5000, redisUrl: "redis://127.0.0.1:6379" },
      scheduler: "pg-boss",
      bodyLimit: 2048,
      auth: { oauthTokenTtlSeconds: 900 },
    });
    expect(
      apiOptionsFromEnv({ COSTPLUGIN_JWT_SECRET: secret, COSTPLUGIN_RATE_LIMIT_MAX: "0" }).options
        .rateLimit,
    ).toBe(false);
  });

  it("names the variable of an invalid value without echoing secrets", () => {
    const bad: Array<[Record<string, string>, RegExp]> = [
      [
        { COSTPLUGIN_JWT_SECRET: "short-secret" },
        /COSTPLUGIN_JWT_SECRET must be at least 32 bytes/,
      ],
      [{ COSTPLUGIN_JWT_PUBLIC_KEY: "not a pem" }, /COSTPLUGIN_JWT_PUBLIC_KEY/],
      [{ COSTPLUGIN_JWT_JWKS_URL: "ftp://x" }, /COSTPLUGIN_JWT_JWKS_URL/],
      [{ COSTPLUGIN_RATE_LIMIT_MAX: "many" }, /COSTPLUGIN_RATE_LIMIT_MAX/],
      [{ COSTPLUGIN_SCHEDULER: "cron" }, /COSTPLUGIN_SCHEDULER/],
      [{ COSTPLUGIN_REDIS_URL: "localhost" }, /COSTPLUGIN_REDIS_URL/],
      [{ COSTPLUGIN_OAUTH_TOKEN_TTL: "forever" }, /COSTPLUGIN_OAUTH_TOKEN_TTL/],
      [
        { OPENAI_API_KEY: "k", COSTPLUGIN_OPENAI_BASE_URL: "not a url" },
        /COSTPLUGIN_OPENAI_BASE_URL/,
      ],
    ];
    for (const [env, message] of bad) {
      expect(() => apiOptionsFromEnv(env), JSON.stringify(env)).toThrow(message);
    }
    try {
      apiOptionsFromEnv({ COSTPLUGIN_JWT_SECRET: "short-secret" });
    } catch (error) {
      expect((error as Error).message).not.toContain("short-secret");
    }
  });
});
