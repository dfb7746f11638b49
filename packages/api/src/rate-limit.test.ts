import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { buildTestApi, json, type TestApi } from "./test-support.js";

describe("rate limiting in memory", () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await buildTestApi({ rateLimit: { max: 3, timeWindowMs: 60_000 } });
  });
  afterAll(async () => {
    await api?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const get = (token: string) =>
    api.app.inject({
      method: "GET",
      url: "/api/v1/tasks",
      headers: { authorization: `Bearer ${token}` },
    });

  it("counts per token, answers 429 problem+json with RateLimit headers, and resets after the window", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date());
    const first = api.token("viewer", "first");
    const second = api.token("viewer", "second");
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await get(first));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(answers[0]?.headers["ratelimit-limit"]).toBe("3");
    expect(answers.map((r) => r.headers["ratelimit-remaining"])).toEqual(["2", "1", "0"]);
    expect(Number(answers[0]?.headers["ratelimit-reset"])).toBeGreaterThan(0);

    const limited = await get(first);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(limited.headers["retry-after"]).toBeDefined();
    expect(json(limited)).toMatchObject({
      type: "urn:costplugin:problem:rate-limited",
      status: 429,
    });
    expect(limited.body).not.toContain(first);

    expect((await get(second)).statusCode).toBe(200);

    vi.setSystemTime(Date.now() + 61_000);
    expect((await get(first)).statusCode).toBe(200);
  });

  it("limits anonymous callers of public routes by address", async () => {
    const hits = [];
    for (let i = 0; i < 4; i++) {
      hits.push(
        await api.app.inject({
          method: "POST",
          url: "/api/v1/oauth/token",
          remoteAddress: "10.9.8.7",
          payload: { grant_type: "client_credentials", client_id: "x", client_secret: "y" },
        }),
      );
    }
    expect(hits.map((r) => r.statusCode)).toEqual([401, 401, 401, 429]);
  });

  it("counts refused tokens against the caller's address, not against valid tokens", async () => {
    const attempt = (authorization: string) =>
      api.app.inject({
        method: "GET",
        url: "/api/v1/tasks",
        remoteAddress: "10.1.2.3",
        headers: { authorization },
      });
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await attempt(`Bearer forged.${i}.token`)).statusCode);
    expect(codes).toEqual([401, 401, 401, 429]);
    const limited = await attempt("Bearer another.forged.token");
    expect(limited.statusCode).toBe(429);
    expect(limited.headers["retry-after"]).toBeDefined();
    expect((await attempt(`Bearer ${api.token("viewer", "honest")}`)).statusCode).toBe(200);
  });

  it("counts requests refused for their role against the token", async () => {
    const token = api.token("viewer", "too-low");
    const codes = [];
    for (let i = 0; i < 4; i++) {
      const res = await api.app.inject({
        method: "DELETE",
        url: "/api/v1/tasks/x",
        headers: { authorization: `Bearer ${token}` },
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([403, 403, 403, 429]);
  });
});

describe("rate limiting in Redis", () => {
  const namespace = `costplugin-test-${randomUUID()}:`;
  const apis: TestApi[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      apis.push(
        await buildTestApi({
          rateLimit: {
            max: 3,
            timeWindowMs: 60_000,
            redisUrl: "redis://127.0.0.1:6379",
            redisNamespace: namespace,
          },
        }),
      );
    }
  });
  afterAll(async () => {
    for (const api of apis) await api.close();
    const redis = new Redis("redis://127.0.0.1:6379");
    const keys = await redis.keys(`${namespace}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it("shares one budget per token across replicas", async () => {
    const [a, b] = apis as [TestApi, TestApi];
    const token = a.token("viewer", "shared");
    const headers = { authorization: `Bearer ${token}` };
    const codes = [];
    for (const api of [a, a, b, b]) {
      codes.push(
        (await api.app.inject({ method: "GET", url: "/api/v1/tasks", headers })).statusCode,
      );
    }
    expect(codes).toEqual([200, 200, 200, 429]);
  });
});
