import { createPublicKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { createSigner } from "fast-jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildTestApi,
  json,
  type StandIn,
  startStandIn,
  type TestApi,
  testSecret,
} from "../test-support.js";
import { mintToken, signAccessToken } from "./mint-token.js";

const url = "/api/v1/prompts";

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

function sign(
  key: string,
  algorithm: "HS256" | "RS256" | "ES256",
  claims: Record<string, unknown> = {},
  kid?: string,
): string {
  return createSigner({ key, algorithm, expiresIn: 60_000, ...(kid ? { kid } : {}) })({
    sub: "idp-user",
    roles: ["viewer"],
    ...claims,
  });
}

// Keys made for these tests only (generating RSA keys at every run costs seconds).
function fixture(name: string): string {
  return readFileSync(new URL(`../testdata/${name}`, import.meta.url), "utf8");
}
const rsaPrivatePem = fixture("test-rsa-private.pem");
const rsaPublicPem = fixture("test-rsa-public.pem");
const otherRsaPrivatePem = fixture("test-rsa-other-private.pem");
const ecPrivatePem = fixture("test-ec-private.pem");
const ecPublicPem = fixture("test-ec-public.pem");

describe("registerAuth with an HS256 secret", () => {
  let api: TestApi;
  const logLines: string[] = [];
  beforeAll(async () => {
    api = await buildTestApi({ logLines });
  });
  afterAll(async () => {
    await api?.close();
  });
  const get = (authorization?: string) =>
    api.app.inject({ method: "GET", url, headers: authorization ? { authorization } : {} });

  it("accepts a valid token", async () => {
    expect((await get(`Bearer ${api.token("viewer")}`)).statusCode).toBe(200);
  });

  it("answers 401 problem+json with a Bearer challenge when the token is missing", async () => {
    const res = await get();
    expect(res.statusCode).toBe(401);
    expect(res.headers["www-authenticate"]).toBe('Bearer realm="costplugin"');
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(json(res)).toMatchObject({
      type: "urn:costplugin:problem:unauthorized",
      status: 401,
      detail: "a bearer token is required",
    });
  });

  it("refuses other schemes and garbage", async () => {
    for (const header of [
      "Basic dXNlcjpwdw==",
      "Bearer",
      "Bearer a b",
      "Bearer not.a.jwt",
      `Bearer ${"x".repeat(5000)}`,
    ]) {
      expect((await get(header)).statusCode, header).toBe(401);
    }
  });

  it("refuses a forged signature", async () => {
    const forged = mintToken({ secret: "another-secret-that-is-long-enough-0000", role: "admin" });
    const res = await get(`Bearer ${forged}`);
    expect(res.statusCode).toBe(401);
    expect(json(res).detail).toBe("token signature is invalid");
  });

  it("refuses a token whose payload was changed after signing", async () => {
    const [h, , s] = api.token("viewer").split(".");
    const tampered = `${h}.${b64({ sub: "x", roles: ["admin"], exp: Math.floor(Date.now() / 1000) + 60 })}.${s}`;
    expect((await get(`Bearer ${tampered}`)).statusCode).toBe(401);
  });

  it("refuses an expired token", async () => {
    const expired = mintToken({
      secret: testSecret,
      role: "admin",
      ttl: "1h",
      now: Date.now() - 3 * 3600_000,
    });
    const res = await get(`Bearer ${expired}`);
    expect(res.statusCode).toBe(401);
    expect(json(res).detail).toBe("token expired");
  });

  it("refuses alg none, with or without a signature", async () => {
    const payload = b64({ sub: "x", roles: ["admin"], exp: Math.floor(Date.now() / 1000) + 600 });
    for (const alg of ["none", "None", "NONE"]) {
      const header = b64({ alg, typ: "JWT" });
      expect((await get(`Bearer ${header}.${payload}.`)).statusCode, alg).toBe(401);
      expect((await get(`Bearer ${header}.${payload}.c2ln`)).statusCode, alg).toBe(401);
    }
  });

  it("refuses a token without exp", async () => {
    const noExp = createSigner({ key: testSecret, algorithm: "HS256" })({
      sub: "x",
      roles: ["admin"],
    });
    expect((await get(`Bearer ${noExp}`)).statusCode).toBe(401);
  });

  it("answers 403 for a token without a known role", async () => {
    for (const roles of [[], ["superuser"], "admin"]) {
      const token = signAccessToken({
        secret: testSecret,
        sub: "x",
        roles: [],
        ttlSeconds: 60,
        claims: {},
      }).split(".");
      const custom = createSigner({ key: testSecret, algorithm: "HS256", expiresIn: 60_000 })({
        sub: "x",
        roles,
      });
      expect(token).toHaveLength(3);
      const res = await get(`Bearer ${custom}`);
      expect(res.statusCode, JSON.stringify(roles)).toBe(403);
      expect(json(res)).toMatchObject({
        type: "urn:costplugin:problem:forbidden",
        detail: "this operation requires the viewer role",
      });
    }
  });

  it("writes no token to the logs and keeps serving", async () => {
    const token = api.token("admin");
    const forged = mintToken({ secret: "another-secret-that-is-long-enough-0000", role: "admin" });
    await get(`Bearer ${token}`);
    await get(`Bearer ${forged}`);
    const all = logLines.join("\n");
    expect(all).toContain("bearer token refused");
    expect(all).not.toContain(token);
    expect(all).not.toContain(forged);
    expect(all).not.toContain(testSecret);
    expect((await get(`Bearer ${token}`)).statusCode).toBe(200);
  });
});

describe("registerAuth with issuer and audience", () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await buildTestApi({
      auth: { secret: testSecret, issuer: "https://id.example", audience: "costplugin-api" },
    });
  });
  afterAll(async () => {
    await api?.close();
  });
  const get = (token: string) =>
    api.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });

  it("accepts the configured issuer and audience", async () => {
    const token = mintToken({
      secret: testSecret,
      role: "viewer",
      issuer: "https://id.example",
      audience: "costplugin-api",
    });
    expect((await get(token)).statusCode).toBe(200);
  });

  it("refuses a wrong audience, a wrong issuer and tokens without them", async () => {
    const wrongAud = mintToken({
      secret: testSecret,
      role: "viewer",
      issuer: "https://id.example",
      audience: "other-api",
    });
    const res = await get(wrongAud);
    expect(res.statusCode).toBe(401);
    expect(json(res).detail).toBe("token audience is not accepted");
    const wrongIss = mintToken({
      secret: testSecret,
      role: "viewer",
      issuer: "https://evil.example",
      audience: "costplugin-api",
    });
    expect(json(await get(wrongIss)).detail).toBe("token issuer is not accepted");
    expect((await get(mintToken({ secret: testSecret, role: "viewer" }))).statusCode).toBe(401);
  });
});

describe("registerAuth with an RS256 public key", () => {
  const privatePem = rsaPrivatePem;
  const publicPem = rsaPublicPem;
  let api: TestApi;
  beforeAll(async () => {
    api = await buildTestApi({ auth: { publicKey: publicPem } });
  });
  afterAll(async () => {
    await api?.close();
  });
  const get = (token: string) =>
    api.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });

  it("accepts a token signed with the private key", async () => {
    expect((await get(sign(privatePem, "RS256"))).statusCode).toBe(200);
  });

  it("refuses algorithm confusion: an HS256 token keyed with the public key", async () => {
    const header = b64({ alg: "HS256", typ: "JWT" });
    const payload = b64({ sub: "x", roles: ["admin"], exp: Math.floor(Date.now() / 1000) + 600 });
    const { createHmac } = await import("node:crypto");
    const sig = createHmac("sha256", publicPem).update(`${header}.${payload}`).digest("base64url");
    const res = await get(`${header}.${payload}.${sig}`);
    expect(res.statusCode).toBe(401);
  });

  it("refuses a token signed by another key and an ES256 token for an RSA key", async () => {
    expect((await get(sign(otherRsaPrivatePem, "RS256"))).statusCode).toBe(401);
    expect((await get(sign(ecPrivatePem, "ES256"))).statusCode).toBe(401);
  });
});

describe("registerAuth with a JWKS URL", () => {
  let jwks: StandIn;
  let api: TestApi;
  beforeAll(async () => {
    const keys = [
      {
        ...createPublicKey(rsaPublicPem).export({ format: "jwk" }),
        kid: "rsa-1",
        alg: "RS256",
        use: "sig",
      },
      {
        ...createPublicKey(ecPublicPem).export({ format: "jwk" }),
        kid: "ec-1",
        alg: "ES256",
        use: "sig",
      },
    ];
    jwks = await startStandIn(() => ({ status: 200, body: { keys } }));
    api = await buildTestApi({
      auth: { jwksUrl: `${jwks.url}/idp/keys.json`, audience: "costplugin-api" },
      rateLimit: { max: 6, timeWindowMs: 60_000 },
    });
  });
  afterAll(async () => {
    await api?.close();
    await jwks?.close();
  });
  const get = (token: string) =>
    api.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });
  const rsaPem = () => rsaPrivatePem;

  it("verifies RS256 and ES256 tokens by kid and caches the key set", async () => {
    const claims = { aud: "costplugin-api" };
    expect((await get(sign(rsaPem(), "RS256", claims, "rsa-1"))).statusCode).toBe(200);
    expect((await get(sign(rsaPem(), "RS256", claims, "rsa-1"))).statusCode).toBe(200);
    expect((await get(sign(ecPrivatePem, "ES256", claims, "ec-1"))).statusCode).toBe(200);
    expect(jwks.requests.map((r) => r.url)).toEqual(["/idp/keys.json"]);
  });

  it("refuses an unknown kid, a wrong audience and an HS256 token", async () => {
    const unknown = await get(sign(rsaPem(), "RS256", { aud: "costplugin-api" }, "missing"));
    expect(unknown.statusCode).toBe(401);
    expect(json(unknown).detail).toBe("token names no key (kid) of the identity provider");
    expect((await get(sign(rsaPem(), "RS256", { aud: "else" }, "rsa-1"))).statusCode).toBe(401);
    expect(
      (await get(mintToken({ secret: testSecret, role: "admin", audience: "costplugin-api" })))
        .statusCode,
    ).toBe(401);
  });

  it("does not fetch the key set for every made-up kid, and limits the address sending them", async () => {
    const before = jwks.requests.length;
    const codes: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await api.app.inject({
        method: "GET",
        url,
        remoteAddress: "10.6.6.6",
        headers: {
          authorization: `Bearer ${sign(rsaPem(), "RS256", { aud: "costplugin-api" }, `kid-${i}`)}`,
        },
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([401, 401, 401, 401, 401, 401, 429, 429, 429, 429]);
    expect(jwks.requests.length - before).toBeLessThanOrEqual(1);
  });
});
