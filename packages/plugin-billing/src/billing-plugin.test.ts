import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorCode, HealthCheckResponse_Status } from "@costplugin/proto";
import { errorDetailFromConnectError } from "@costplugin/sdk";
import { createTestClient } from "@costplugin/sdk/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBillingPlugin } from "./billing-plugin.js";
import type { BillingStore } from "./billing-store.js";
import { fixtureSource, loadPluginFixture, openMigratedStore } from "./vendor-stand-in/index.js";

const pulledAt = new Date("2026-03-06T01:00:00Z");
let now = new Date("2026-03-06T09:00:00Z");
let store: BillingStore;
let client: ReturnType<typeof createTestClient>;

beforeEach(async () => {
  now = new Date("2026-03-06T09:00:00Z");
  store = await openMigratedStore(":memory:");
  await loadPluginFixture(store, pulledAt);
  client = createTestClient(
    createBillingPlugin({
      store,
      source: fixtureSource,
      staleAfterMs: 48 * 3_600_000,
      now: () => now,
    }),
  );
});
afterEach(async () => {
  await store.close().catch(() => {});
});

const at = (iso: string) => timestampFromDate(new Date(iso));
const days = (results: Array<{ timestamp?: { seconds: bigint } }>) =>
  results.map((r) => new Date(Number(r.timestamp?.seconds ?? 0n) * 1000).toISOString());

async function codeOf(
  call: Promise<unknown>,
): Promise<{ code: Code; errorCode: ErrorCode | undefined; message: string }> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConnectError);
  const connectError = error as ConnectError;
  return {
    code: connectError.code,
    errorCode: errorDetailFromConnectError(connectError)?.code,
    message: connectError.rawMessage,
  };
}

describe("createBillingPlugin", () => {
  describe("GetActualCost", () => {
    it("answers one result per day at 00:00 UTC, in order, summing the day's rows exactly", async () => {
      const response = await client.costSource.getActualCost({
        resourceId: "i-web",
        start: at("2026-03-01T00:00:00Z"),
        end: at("2026-03-06T00:00:00Z"),
      });
      expect(days(response.results)).toEqual([
        "2026-03-01T00:00:00.000Z",
        "2026-03-02T00:00:00.000Z",
        "2026-03-03T00:00:00.000Z",
        "2026-03-04T00:00:00.000Z",
        "2026-03-05T00:00:00.000Z",
      ]);
      expect(response.results.map((r) => r.cost)).toEqual([1.1, 2.25, 3.3, 4.4, 5.5]);
      expect(response.results.map((r) => [r.usageAmount, r.usageUnit, r.source])[1]).toEqual([
        25,
        "hour",
        fixtureSource,
      ]);
    });

    it("includes the start day and excludes a day starting exactly at end", async () => {
      const response = await client.costSource.getActualCost({
        resourceId: "i-web",
        start: at("2026-03-02T00:00:00Z"),
        end: at("2026-03-04T00:00:00Z"),
      });
      expect(days(response.results)).toEqual([
        "2026-03-02T00:00:00.000Z",
        "2026-03-03T00:00:00.000Z",
      ]);
    });

    it("includes every day bucket the range overlaps", async () => {
      const response = await client.costSource.getActualCost({
        resourceId: "i-web",
        start: at("2026-03-02T23:59:59Z"),
        end: at("2026-03-04T00:00:00.001Z"),
      });
      expect(days(response.results)).toEqual([
        "2026-03-02T00:00:00.000Z",
        "2026-03-03T00:00:00.000Z",
        "2026-03-04T00:00:00.000Z",
      ]);
    });

    it("filters by tags, with keys that contain colons", async () => {
      const prod = await client.costSource.getActualCost({
        resourceId: "i-web",
        start: at("2026-03-01T00:00:00Z"),
        end: at("2026-03-03T00:00:00Z"),
        tags: { "aws:cloudformation:stack-name": "web", env: "prod" },
      });
      expect(prod.results).toHaveLength(2);
      const none = await client.costSource.getActualCost({
        resourceId: "i-web",
        start: at("2026-03-01T00:00:00Z"),
        end: at("2026-03-03T00:00:00Z"),
        tags: { env: "dev" },
      });
      expect(none.results).toEqual([]);
    });

    it("leaves usage empty when the vendor gave none", async () => {
      const response = await client.costSource.getActualCost({
        resourceId: "i-dev",
        start: at("2026-03-01T00:00:00Z"),
        end: at("2026-03-06T00:00:00Z"),
      });
      expect(response.results.map((r) => [r.cost, r.usageAmount, r.usageUnit])).toEqual([
        [0.3, 0, ""],
      ]);
    });

    it("answers an empty list for a known resource without data in the range", async () => {
      const response = await client.costSource.getActualCost({
        resourceId: "i-web",
        start: at("2025-01-01T00:00:00Z"),
        end: at("2025-01-31T00:00:00Z"),
      });
      expect(response.results).toEqual([]);
    });

    it("answers not_found with RESOURCE_NOT_FOUND for a resource the store has never seen", async () => {
      await expect(
        codeOf(
          client.costSource.getActualCost({
            resourceId: "i-unknown",
            start: at("2026-03-01T00:00:00Z"),
            end: at("2026-03-02T00:00:00Z"),
          }),
        ),
      ).resolves.toEqual({
        code: Code.NotFound,
        errorCode: ErrorCode.RESOURCE_NOT_FOUND,
        message: `no billing data for resource "i-unknown" in source "${fixtureSource}"`,
      });
    });

    it("rejects a range whose end is not after its start", async () => {
      const result = await codeOf(
        client.costSource.getActualCost({
          resourceId: "i-web",
          start: at("2026-03-02T00:00:00Z"),
          end: at("2026-03-02T00:00:00Z"),
        }),
      );
      expect([result.code, result.errorCode]).toEqual([
        Code.InvalidArgument,
        ErrorCode.INVALID_TIME_RANGE,
      ]);
    });

    it("rejects a missing resource_id", async () => {
      const result = await codeOf(
        client.costSource.getActualCost({
          start: at("2026-03-01T00:00:00Z"),
          end: at("2026-03-02T00:00:00Z"),
        }),
      );
      expect([result.code, result.errorCode]).toEqual([
        Code.InvalidArgument,
        ErrorCode.INVALID_RESOURCE,
      ]);
    });
  });

  describe("Supports", () => {
    it("supports a provider, type and region present in the store, ignoring case", async () => {
      await expect(
        client.costSource.supports({
          resource: { provider: "AWS", resourceType: "amazonec2", region: "us-east-1" },
        }),
      ).resolves.toMatchObject({ supported: true, reason: "" });
    });

    it("supports any region when none is given", async () => {
      await expect(
        client.costSource.supports({ resource: { provider: "aws", resourceType: "AmazonS3" } }),
      ).resolves.toMatchObject({ supported: true });
    });

    it("explains a region without data", async () => {
      await expect(
        client.costSource.supports({
          resource: { provider: "aws", resourceType: "AmazonEC2", region: "sa-east-1" },
        }),
      ).resolves.toMatchObject({
        supported: false,
        reason:
          'no billing data for "AmazonEC2" in region "sa-east-1" (stored regions: eu-west-1, us-east-1)',
      });
    });

    it("explains a resource type without data, listing the stored ones", async () => {
      await expect(
        client.costSource.supports({ resource: { provider: "aws", resourceType: "AmazonRDS" } }),
      ).resolves.toMatchObject({
        supported: false,
        reason:
          'no billing data for resource type "AmazonRDS" of provider "aws" (stored: AmazonEC2, AmazonS3)',
      });
    });

    it("explains a provider without data", async () => {
      await expect(
        client.costSource.supports({
          resource: { provider: "gcp", resourceType: "ComputeEngine" },
        }),
      ).resolves.toMatchObject({
        supported: false,
        reason: `no billing data for provider "gcp" in source "${fixtureSource}"`,
      });
    });
  });

  describe("GetProjectedCost", () => {
    it("projects the mean daily cost per resource-day of the recent window to a month", async () => {
      const response = await client.costSource.getProjectedCost({
        resource: { provider: "aws", resourceType: "AmazonEC2", region: "us-east-1" },
      });
      // i-web over 03-01..03-05: 16.55 over 5 resource-days = 3.31 a day.
      expect(response.currency).toBe("USD");
      expect(response.unitPrice).toBeCloseTo(3.31 / 24, 12);
      expect(response.costPerMonth).toBe(100.679167);
      expect(response.billingDetail).toBe(
        "projection from actual spend: mean daily cost of 1 matching resource over 5 resource-days from 2026-02-27 to 2026-03-05, times 730 / 24",
      );
    });

    it("narrows the projection to one resource given as the resource_id tag", async () => {
      const response = await client.costSource.getProjectedCost({
        resource: { provider: "aws", resourceType: "AmazonEC2", tags: { resource_id: "i-dev" } },
      });
      expect(response.costPerMonth).toBe(9.125);
    });

    it("answers not_found for a resource type without data", async () => {
      const result = await codeOf(
        client.costSource.getProjectedCost({
          resource: { provider: "aws", resourceType: "AmazonRDS" },
        }),
      );
      expect([result.code, result.errorCode]).toEqual([
        Code.NotFound,
        ErrorCode.RESOURCE_NOT_FOUND,
      ]);
    });
  });

  describe("HealthCheck", () => {
    it("serves when the last pull is recent", async () => {
      await expect(client.observability.healthCheck({})).resolves.toMatchObject({
        status: HealthCheckResponse_Status.SERVING,
        message: "last successful pull at 2026-03-06T01:00:00.000Z",
      });
    });

    it("reports NOT_SERVING with the age when the data is older than the limit", async () => {
      now = new Date("2026-03-09T01:00:00Z");
      await expect(client.observability.healthCheck({})).resolves.toMatchObject({
        status: HealthCheckResponse_Status.NOT_SERVING,
        message:
          "billing data is stale: the last successful pull was 3 days ago (2026-03-06T01:00:00.000Z), more than the 2 days allowed",
      });
    });

    it("reports NOT_SERVING when the store is unreachable", async () => {
      await store.close();
      await expect(client.observability.healthCheck({})).resolves.toMatchObject({
        status: HealthCheckResponse_Status.NOT_SERVING,
        message: "the billing store is unreachable",
      });
    });

    it("reports NOT_SERVING before the first pull", async () => {
      const empty = await openMigratedStore(":memory:");
      try {
        const fresh = createTestClient(
          createBillingPlugin({ store: empty, source: "new", staleAfterMs: 1000 }),
        );
        await expect(fresh.observability.healthCheck({})).resolves.toMatchObject({
          status: HealthCheckResponse_Status.NOT_SERVING,
          message: 'no successful pull yet for source "new": run costplugin-billing pull',
        });
      } finally {
        await empty.close();
      }
    });
  });

  it("does not offer GetPricingSpec", async () => {
    const result = await codeOf(
      client.costSource.getPricingSpec({
        resource: { provider: "aws", resourceType: "AmazonEC2" },
      }),
    );
    expect(result.code).toBe(Code.Unimplemented);
  });
});
