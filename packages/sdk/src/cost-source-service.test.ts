import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { ErrorCategory, ErrorCode } from "@costplugin/proto";
import { describe, expect, it } from "vitest";
import { createObservability } from "./observability.js";
import type { PluginRoutesOptions } from "./plugin-routes.js";
import {
  createCapturingLogger,
  createRecordingPlugin,
  onlyErrorDetail,
  rejectionOf,
} from "./test-helpers.js";
import { createTestClient } from "./testing.js";

const day = 86_400_000;
const jan1 = Date.UTC(2025, 0, 1);
const ec2 = { provider: "aws", resourceType: "ec2", sku: "t3.micro", region: "us-east-1" };

function setup(options: PluginRoutesOptions = {}) {
  const recording = createRecordingPlugin();
  const client = createTestClient(recording.plugin, {
    observability: createObservability({ defaultMetrics: false }),
    logger: createCapturingLogger().logger,
    ...options,
  });
  return { ...recording, client };
}

async function expectInvalid(call: Promise<unknown>, errorCode: ErrorCode, message: string) {
  const error = await rejectionOf(call);
  expect(error.code).toBe(Code.InvalidArgument);
  expect(error.rawMessage).toBe(message);
  const detail = onlyErrorDetail(error);
  expect(detail.code).toBe(errorCode);
  expect(detail.category).toBe(ErrorCategory.PERMANENT);
  expect(detail.message).toBe(message);
  return detail;
}

const resourceMethods = ["supports", "getProjectedCost", "getPricingSpec"] as const;

describe("createCostSourceService", () => {
  describe.each(resourceMethods)("%s", (method) => {
    it("rejects a request without resource as INVALID_RESOURCE before the plugin sees it", async () => {
      const { client, calls } = setup();
      const detail = await expectInvalid(
        client.costSource[method]({}),
        ErrorCode.INVALID_RESOURCE,
        "resource is required",
      );
      expect(detail.details).toEqual({ field: "resource" });
      expect(calls).toEqual([]);
    });

    it("rejects an empty provider", async () => {
      const { client, calls } = setup();
      await expectInvalid(
        client.costSource[method]({ resource: { ...ec2, provider: "" } }),
        ErrorCode.INVALID_RESOURCE,
        "resource.provider is required and must not be empty",
      );
      expect(calls).toEqual([]);
    });

    it("rejects a blank resource_type", async () => {
      const { client } = setup();
      await expectInvalid(
        client.costSource[method]({ resource: { ...ec2, resourceType: "  \t" } }),
        ErrorCode.INVALID_RESOURCE,
        "resource.resource_type is required and must not be empty",
      );
    });

    it("rejects an oversized sku and names its length and the limit", async () => {
      const { client } = setup();
      await expectInvalid(
        client.costSource[method]({ resource: { ...ec2, sku: "x".repeat(257) } }),
        ErrorCode.INVALID_RESOURCE,
        "resource.sku is 257 characters long; at most 256 are allowed",
      );
    });

    it("rejects a region with a control character", async () => {
      const { client } = setup();
      await expectInvalid(
        client.costSource[method]({ resource: { ...ec2, region: "us-east-1\n" } }),
        ErrorCode.INVALID_RESOURCE,
        "resource.region contains a control character",
      );
    });

    it("rejects too many tags", async () => {
      const { client } = setup();
      const tags = Object.fromEntries(Array.from({ length: 129 }, (_, i) => [`k${i}`, "v"]));
      await expectInvalid(
        client.costSource[method]({ resource: { ...ec2, tags } }),
        ErrorCode.INVALID_RESOURCE,
        "resource.tags has 129 entries; at most 128 are allowed",
      );
    });

    it("rejects an oversized tag key and an oversized tag value", async () => {
      const { client } = setup();
      await expectInvalid(
        client.costSource[method]({ resource: { ...ec2, tags: { ["k".repeat(513)]: "v" } } }),
        ErrorCode.INVALID_RESOURCE,
        "a key of resource.tags is 513 characters long; at most 512 are allowed",
      );
      await expectInvalid(
        client.costSource[method]({ resource: { ...ec2, tags: { team: "v".repeat(1025) } } }),
        ErrorCode.INVALID_RESOURCE,
        'the value of resource.tags["team"] is 1025 characters long; at most 1024 are allowed',
      );
    });

    it("passes a valid request to the plugin", async () => {
      const { client, calls } = setup();
      await client.costSource[method]({ resource: { ...ec2, tags: { team: "finops" } } });
      expect(calls).toEqual([method]);
    });
  });

  it("applies configured limits", async () => {
    const { client } = setup({ limits: { maxFieldLength: 8 } });
    await expectInvalid(
      client.costSource.getProjectedCost({ resource: { ...ec2, sku: "m5.24xlarge" } }),
      ErrorCode.INVALID_RESOURCE,
      "resource.sku is 11 characters long; at most 8 are allowed",
    );
  });

  describe("getActualCost", () => {
    const valid = {
      resourceId: "i-0abc",
      start: timestampFromMs(jan1),
      end: timestampFromMs(jan1 + 3 * day),
    };

    it("passes a valid request to the plugin", async () => {
      const { client, calls } = setup();
      const response = await client.costSource.getActualCost(valid);
      expect(response.results).toHaveLength(1);
      expect(calls).toEqual(["getActualCost"]);
    });

    it("rejects an empty resource_id as INVALID_RESOURCE", async () => {
      const { client, calls } = setup();
      await expectInvalid(
        client.costSource.getActualCost({ ...valid, resourceId: "" }),
        ErrorCode.INVALID_RESOURCE,
        "resource_id is required and must not be empty",
      );
      expect(calls).toEqual([]);
    });

    it("rejects an oversized resource_id", async () => {
      const { client } = setup();
      await expectInvalid(
        client.costSource.getActualCost({ ...valid, resourceId: "a".repeat(2049) }),
        ErrorCode.INVALID_RESOURCE,
        "resource_id is 2049 characters long; at most 2048 are allowed",
      );
    });

    it("rejects a missing start as INVALID_TIME_RANGE", async () => {
      const { client, calls } = setup();
      const detail = await expectInvalid(
        client.costSource.getActualCost({ ...valid, start: undefined }),
        ErrorCode.INVALID_TIME_RANGE,
        "start is required",
      );
      expect(detail.details).toEqual({ field: "start" });
      expect(calls).toEqual([]);
    });

    it("rejects a missing end as INVALID_TIME_RANGE", async () => {
      const { client } = setup();
      await expectInvalid(
        client.costSource.getActualCost({ ...valid, end: undefined }),
        ErrorCode.INVALID_TIME_RANGE,
        "end is required",
      );
    });

    it("rejects an end before start and shows both instants", async () => {
      const { client } = setup();
      await expectInvalid(
        client.costSource.getActualCost({ ...valid, end: timestampFromMs(jan1 - day) }),
        ErrorCode.INVALID_TIME_RANGE,
        "end (2024-12-31T00:00:00.000Z) is before start (2025-01-01T00:00:00.000Z)",
      );
    });

    it("rejects an end equal to start because the range is half-open", async () => {
      const { client } = setup();
      await expectInvalid(
        client.costSource.getActualCost({ ...valid, end: timestampFromMs(jan1) }),
        ErrorCode.INVALID_TIME_RANGE,
        "end equals start (2025-01-01T00:00:00.000Z); the range is half-open, so it must end after it starts",
      );
    });

    it("accepts exactly the default maximum span of 366 days and rejects one millisecond more", async () => {
      const { client } = setup();
      await client.costSource.getActualCost({ ...valid, end: timestampFromMs(jan1 + 366 * day) });
      await expectInvalid(
        client.costSource.getActualCost({ ...valid, end: timestampFromMs(jan1 + 366 * day + 1) }),
        ErrorCode.INVALID_TIME_RANGE,
        "the range from 2025-01-01T00:00:00.000Z to 2026-01-02T00:00:00.001Z is longer than 366 days, the most allowed",
      );
    });

    it("applies a configured maxActualCostSpanDays", async () => {
      const { client } = setup({ maxActualCostSpanDays: 31 });
      await expectInvalid(
        client.costSource.getActualCost({ ...valid, end: timestampFromMs(jan1 + 45 * day) }),
        ErrorCode.INVALID_TIME_RANGE,
        "the range from 2025-01-01T00:00:00.000Z to 2025-02-15T00:00:00.000Z is longer than 31 days, the most allowed",
      );
    });

    it("rejects a timestamp with nanos out of range", async () => {
      const { client } = setup();
      await expectInvalid(
        client.costSource.getActualCost({ ...valid, start: { seconds: 1n, nanos: -5 } }),
        ErrorCode.INVALID_TIME_RANGE,
        "start has nanos outside 0 to 999999999",
      );
    });

    it("rejects a timestamp beyond year 9999", async () => {
      const { client } = setup();
      await expectInvalid(
        client.costSource.getActualCost({ ...valid, end: { seconds: 253_402_300_800n, nanos: 0 } }),
        ErrorCode.INVALID_TIME_RANGE,
        "end is outside 0001-01-01 to 9999-12-31",
      );
    });

    it("rejects oversized tag filters as INVALID_RESOURCE", async () => {
      const { client } = setup();
      await expectInvalid(
        client.costSource.getActualCost({ ...valid, tags: { env: "x".repeat(1025) } }),
        ErrorCode.INVALID_RESOURCE,
        'the value of tags["env"] is 1025 characters long; at most 1024 are allowed',
      );
    });
  });

  it("answers Name with the plugin's name", async () => {
    const { client } = setup();
    expect((await client.costSource.name({})).name).toBe("recording");
  });

  it("answers unimplemented with an unspecified ErrorDetail for a method the plugin leaves out", async () => {
    const client = createTestClient(
      { name: "bare" },
      { observability: createObservability({ defaultMetrics: false }) },
    );
    const error = await rejectionOf(client.costSource.getActualCost({ resourceId: "" }));
    expect(error.code).toBe(Code.Unimplemented);
    expect(error.rawMessage).toBe('GetActualCost is not offered by plugin "bare"');
    const detail = onlyErrorDetail(error);
    expect(detail.code).toBe(ErrorCode.UNSPECIFIED);
    expect(detail.category).toBe(ErrorCategory.UNSPECIFIED);
    for (const call of [
      client.costSource.supports({ resource: ec2 }),
      client.costSource.getProjectedCost({ resource: ec2 }),
      client.costSource.getPricingSpec({ resource: ec2 }),
    ]) {
      expect((await rejectionOf(call)).code).toBe(Code.Unimplemented);
    }
  });

  it("keeps serving after a stream of hostile requests", async () => {
    const { client, calls } = setup();
    const hostile = [
      client.costSource.getProjectedCost({ resource: { provider: "\u0000", resourceType: "ec2" } }),
      client.costSource.getProjectedCost({ resource: { ...ec2, provider: "a".repeat(100_000) } }),
      client.costSource.getActualCost({ resourceId: "i-1\r\nX-Injected: 1" }),
      client.costSource.supports({ resource: { ...ec2, tags: { "\u001b[31m": "red" } } }),
    ];
    for (const call of hostile) {
      expect((await rejectionOf(call)).code).toBe(Code.InvalidArgument);
    }
    expect(calls).toEqual([]);
    expect((await client.costSource.getProjectedCost({ resource: ec2 })).currency).toBe("USD");
  });
});
