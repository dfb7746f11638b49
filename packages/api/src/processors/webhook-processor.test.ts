import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createManualClock } from "../manual-clock.js";
import type { ResponseRecord } from "../schemas/response-schemas.js";
import { createWebhookProcessor } from "./webhook-processor.js";

const sampleResponse = JSON.parse(
  readFileSync(new URL("../testdata/response-record.json", import.meta.url), "utf8"),
) as ResponseRecord;

const secret = "whsec-0123456789abcdef";
const url = "https://hooks.example.com/services/T0001/path-credential?token=query-credential";

describe("createWebhookProcessor", () => {
  it("keeps the secret and the URL's path out of a delivery error", async () => {
    const failing = (async () => {
      throw new TypeError(`request to ${url} failed, reason: ${secret} refused`);
    }) as typeof fetch;
    const processor = createWebhookProcessor(
      failing,
      createManualClock(new Date("2025-01-06T08:00:00Z")),
      { initialDelayMs: 1, maxDelayMs: 1 },
    );
    const failure = await processor
      .process(sampleResponse, { enabled: true, url, secret, max_attempts: 2, timeout_ms: 1000 })
      .then(
        () => undefined,
        (error: Error & { attempts?: number }) => error,
      );
    expect(failure?.attempts).toBe(2);
    expect(failure?.message).toMatch(/^webhook delivery failed: /);
    expect(failure?.message).not.toContain("path-credential");
    expect(failure?.message).not.toContain("query-credential");
    expect(failure?.message).not.toContain(secret);
  });
});
