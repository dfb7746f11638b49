import { createPublicKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StandIn, startStandIn } from "../test-support.js";
import { createJwksKeySource } from "./jwks-key-source.js";

function fixture(name: string): string {
  return readFileSync(new URL(`../testdata/${name}`, import.meta.url), "utf8");
}
const rsaPublicPem = fixture("test-rsa-public.pem");
const ecPublicPem = fixture("test-ec-public.pem");
const jwk = (pem: string, kid: string, alg: string) => ({
  ...createPublicKey(pem).export({ format: "jwk" }),
  kid,
  alg,
  use: "sig",
});

describe("createJwksKeySource", () => {
  let idp: StandIn;
  let published: unknown[] = [];
  let status = 200;
  let time = 0;
  beforeAll(async () => {
    idp = await startStandIn(() => ({ status, body: { keys: published } }));
  });
  afterAll(async () => {
    await idp?.close();
  });
  const source = () =>
    createJwksKeySource({
      url: `${idp.url}/keys`,
      ttlMs: 600_000,
      missCooldownMs: 30_000,
      now: () => time,
    });

  it("serves keys by kid from one fetch of the whole set", async () => {
    idp.requests.length = 0;
    published = [jwk(rsaPublicPem, "rsa-1", "RS256"), jwk(ecPublicPem, "ec-1", "ES256")];
    time = 1_000_000;
    const keys = source();
    expect(await keys.key("rsa-1", "RS256")).toBe(rsaPublicPem);
    expect(await keys.key("ec-1", "ES256")).toBe(ecPublicPem);
    expect(idp.requests).toHaveLength(1);
  });

  it("fetches at most once per cooldown for kids it lacks, and finds a new key after it", async () => {
    idp.requests.length = 0;
    published = [jwk(rsaPublicPem, "rsa-1", "RS256")];
    time = 2_000_000;
    const keys = source();
    await keys.key("rsa-1", "RS256");
    const misses = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => keys.key(`made-up-${i}`, "RS256")),
    );
    expect(misses.every((m) => m.status === "rejected")).toBe(true);
    expect(idp.requests).toHaveLength(1);
    published = [...published, jwk(ecPublicPem, "ec-2", "ES256")];
    await expect(keys.key("ec-2", "ES256")).rejects.toThrow(/kid/);
    time += 30_000;
    expect(await keys.key("ec-2", "ES256")).toBe(ecPublicPem);
    expect(idp.requests).toHaveLength(2);
  });

  it("refuses a key used with another algorithm than its own", async () => {
    published = [jwk(rsaPublicPem, "rsa-1", "RS256")];
    time = 3_000_000;
    await expect(source().key("rsa-1", "ES256")).rejects.toThrow(/algorithm/);
  });

  it("keeps the keys it has when a refresh fails, and fails when it never had any", async () => {
    published = [jwk(rsaPublicPem, "rsa-1", "RS256")];
    time = 4_000_000;
    const keys = source();
    await keys.key("rsa-1", "RS256");
    status = 503;
    time += 700_000;
    expect(await keys.key("rsa-1", "RS256")).toBe(rsaPublicPem);
    await expect(source().key("rsa-1", "RS256")).rejects.toThrow(/HTTP 503/);
    status = 200;
  });
});
