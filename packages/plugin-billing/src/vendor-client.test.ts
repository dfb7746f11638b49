import { afterEach, describe, expect, it } from "vitest";
import type { RetryEvent, VendorClientOptions } from "./vendor-client.js";
import { createVendorClient, requestedWaitMs } from "./vendor-client.js";
import { forbiddenMessage, unauthorizedMessage, type VendorError } from "./vendor-error.js";
import type { VendorStandIn } from "./vendor-stand-in/index.js";
import { createCostDataset, standInTokens, startVendorStandIn } from "./vendor-stand-in/index.js";

// 970 ms into an epoch second: a reset "1 s from now" (whole seconds) is 30 ms away.
const clock = 1_773_576_000_970;
const query = {
  startDay: "2026-03-01",
  endDay: "2026-03-03",
  groupings: ["resource_id"],
  pageSize: 10,
};

let vendor: VendorStandIn;
afterEach(async () => {
  await vendor?.close();
});

async function setup(
  options: Partial<VendorClientOptions> = {},
  standIn: Parameters<typeof startVendorStandIn>[0] = {},
) {
  vendor = await startVendorStandIn({
    dataset: createCostDataset({ resources: 8 }),
    now: () => clock,
    ...standIn,
  });
  const retries: RetryEvent[] = [];
  const client = createVendorClient({
    baseUrl: vendor.url,
    bearerToken: standInTokens.bearer,
    scope: { kind: "cost_report", token: standInTokens.costReport },
    timeoutMs: 500,
    maxAttempts: 3,
    retryInitialDelayMs: 1,
    retryMaxDelayMs: 5,
    rateLimitMaxWaitMs: 1000,
    breakerFailures: 10,
    breakerHalfOpenMs: 60_000,
    now: () => clock,
    onRetry: (event) => retries.push(event),
    ...options,
  });
  const readAll = async () => {
    const rows: unknown[] = [];
    for await (const page of client.costPages(query)) rows.push(...page.rows);
    return rows;
  };
  return { client, retries, readAll };
}

describe("createVendorClient", () => {
  it("sends the bearer token and the report, and follows links.next to the last page", async () => {
    const { client, readAll } = await setup();
    const rows = await readAll();
    // Inclusive end: 3 days x 8 resources, 10 per page.
    expect(rows).toHaveLength(24);
    expect(vendor.requests.map((r) => r.page)).toEqual([1, 2, 3]);
    expect(vendor.requests.every((r) => r.authorization === `Bearer ${standInTokens.bearer}`)).toBe(
      true,
    );
    const first = new URL(vendor.requests[0]?.url ?? "", "http://x");
    expect(Object.fromEntries(first.searchParams)).toEqual({
      cost_report_token: standInTokens.costReport,
      start_date: "2026-03-01",
      end_date: "2026-03-03",
      date_bin: "day",
      groupings: "resource_id",
      limit: "10",
      order: "asc",
      page: "1",
    });
    expect(client.stats).toEqual({ requests: 3, retries: 0 });
  });

  it("waits until x-rate-limit-reset after a 429, then succeeds", async () => {
    const { retries, readAll } = await setup();
    vendor.inject({ kind: "rate-limit", resetInSeconds: 1 }, { page: 2 });
    await expect(readAll()).resolves.toHaveLength(24);
    expect(retries).toEqual([
      {
        attempt: 1,
        delayMs: 30,
        kind: "rate_limited",
        reason: "the vendor rate-limited the request (HTTP 429)",
      },
    ]);
  });

  it("fails at once when the rate limit resets later than the configured maximum wait", async () => {
    const { client, readAll } = await setup();
    vendor.inject({ kind: "rate-limit", retryAfterSeconds: 3600 }, { page: 1 });
    const error = (await readAll().catch((e: unknown) => e)) as VendorError;
    expect(error.kind).toBe("rate_limit_too_long");
    expect(error.message).toBe(
      "the vendor's rate limit resets in 3600 s, longer than rate_limit_max_wait_seconds (1 s); run the pull again later",
    );
    expect(client.stats.requests).toBe(1);
  });

  it("retries 5xx answers with backoff and reports each retry", async () => {
    const { retries, readAll } = await setup();
    vendor.inject({ kind: "status", status: 503 }, { page: 1, times: 2 });
    await expect(readAll()).resolves.toHaveLength(24);
    expect(retries.map((r) => r.kind)).toEqual(["unavailable", "unavailable"]);
    expect(retries.every((r) => r.delayMs >= 0 && r.delayMs <= 5)).toBe(true);
  });

  it("gives up after the configured attempts", async () => {
    const { client, readAll } = await setup();
    vendor.inject({ kind: "status", status: 500 }, { times: 10 });
    await expect(readAll()).rejects.toThrow("the vendor failed (HTTP 500)");
    expect(client.stats.requests).toBe(3);
  });

  it("times out a vendor that never answers and retries", async () => {
    const { retries, readAll } = await setup({ timeoutMs: 100 });
    vendor.inject({ kind: "hang" }, { page: 2 });
    await expect(readAll()).resolves.toHaveLength(24);
    expect(retries.map((r) => r.kind)).toEqual(["timeout"]);
  });

  it("retries a truncated JSON body", async () => {
    const { retries, readAll } = await setup();
    vendor.inject({ kind: "truncate" }, { page: 3 });
    await expect(readAll()).resolves.toHaveLength(24);
    expect(retries.map((r) => r.kind)).toEqual(["truncated"]);
  });

  it("opens the circuit breaker after consecutive failures and stops calling the vendor", async () => {
    const { client, readAll } = await setup({ breakerFailures: 3, maxAttempts: 2 });
    vendor.inject({ kind: "status", status: 503 }, { times: 100 });
    await expect(readAll()).rejects.toThrow("the vendor failed (HTTP 503)");
    const second = (await readAll().catch((e: unknown) => e)) as VendorError;
    expect(second.kind).toBe("circuit_open");
    const before = client.stats.requests;
    const third = (await readAll().catch((e: unknown) => e)) as VendorError;
    expect(third.kind).toBe("circuit_open");
    expect(client.stats.requests).toBe(before);
  });

  it("fails on a 401 with the remediation text and does not retry", async () => {
    const { client, readAll } = await setup({}, { rejectTokens: { [standInTokens.bearer]: 401 } });
    await expect(readAll()).rejects.toThrow(unauthorizedMessage);
    expect(client.stats.requests).toBe(1);
  });

  it("fails on a 403 with the remediation text", async () => {
    const { readAll } = await setup({}, { rejectTokens: { [standInTokens.bearer]: 403 } });
    await expect(readAll()).rejects.toThrow(forbiddenMessage);
  });

  it("fails on a 404 with the vendor's message", async () => {
    const { readAll } = await setup({}, { costReportTokens: ["cr_someotherreport000000"] });
    await expect(readAll()).rejects.toThrow(
      "the vendor does not know the cost report or workspace (HTTP 404): Cost report not found",
    );
  });

  it("refuses to follow links.next to another origin, so the token never leaves for it", async () => {
    const { readAll } = await setup();
    vendor.inject(
      { kind: "next-link", href: "https://collector.example/v2/costs?page=2" },
      { page: 1 },
    );
    await expect(readAll()).rejects.toThrow(
      "the vendor's links.next leads to another origin (https://collector.example); refusing to send the token there",
    );
  });

  it("stops when links.next loops back to a page already read", async () => {
    const { readAll } = await setup();
    // Page 2 names itself as the next page.
    vendor.onRequest((request) => {
      if (request.page !== 1) return;
      const self = new URL(request.url, vendor.url);
      self.searchParams.set("page", "2");
      vendor.inject({ kind: "next-link", href: self.toString() }, { page: 2 });
    });
    await expect(readAll()).rejects.toThrow(
      "the vendor's links.next points back to a page already read",
    );
  });

  it("refuses an answer larger than the body limit", async () => {
    const { readAll } = await setup({ maxBodyBytes: 1000 });
    await expect(readAll()).rejects.toThrow("the vendor's answer is larger than 1000 bytes");
  });

  it("strips control characters from the vendor's error messages", async () => {
    const { readAll } = await setup();
    vendor.inject({
      kind: "status",
      status: 400,
      body: JSON.stringify({ errors: ["bad\u001b[31m value\nhere"] }),
    });
    await expect(readAll()).rejects.toThrow(
      "the vendor rejected the request (HTTP 400): bad [31m value here",
    );
  });
});

describe("VendorClient.probe", () => {
  it.each([
    [200, "accepted"],
    [400, "accepted"],
    [401, "rejected"],
    [403, "rejected"],
    [503, "undetermined"],
  ] as const)("classifies HTTP %i as %s with exactly one request", async (status, verdict) => {
    const { client } = await setup();
    if (status !== 200) vendor.inject({ kind: "status", status }, { times: 5 });
    await expect(client.probe()).resolves.toEqual({ status, verdict });
    expect(vendor.requests).toHaveLength(1);
  });
});

describe("requestedWaitMs", () => {
  it("prefers Retry-After seconds over x-rate-limit-reset", () => {
    const headers = new Headers({ "retry-after": "2", "x-rate-limit-reset": "1773576060" });
    expect(requestedWaitMs(headers, clock)).toBe(2000);
  });

  it("reads Retry-After as an HTTP date", () => {
    const headers = new Headers({ "retry-after": new Date(clock + 4030).toUTCString() });
    // HTTP dates have whole seconds: 4030 ms after a time 970 ms into its second.
    expect(requestedWaitMs(headers, clock)).toBe(4030);
  });

  it("reads x-rate-limit-reset as epoch seconds", () => {
    expect(requestedWaitMs(new Headers({ "x-rate-limit-reset": "1773576005" }), clock)).toBe(4030);
  });

  it("never asks for a negative wait and ignores garbage", () => {
    expect(requestedWaitMs(new Headers({ "x-rate-limit-reset": "1" }), clock)).toBe(0);
    expect(requestedWaitMs(new Headers({ "retry-after": "soon" }), clock)).toBeUndefined();
  });
});
