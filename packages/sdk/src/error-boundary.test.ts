import { setTimeout as sleep } from "node:timers/promises";
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorCategory, ErrorCode } from "@costplugin/proto";
import { describe, expect, it } from "vitest";
import { connectErrorFromAbortReason } from "./error-boundary.js";
import { connectErrorWithDetail } from "./error-detail.js";
import { createObservability } from "./observability.js";
import {
  createCapturingLogger,
  createRecordingPlugin,
  onlyErrorDetail,
  rejectionOf,
} from "./test-helpers.js";
import { createTestClient } from "./testing.js";

const ec2 = { provider: "aws", resourceType: "ec2" };
const secret = "password=hunter2 at https://vendor.example/costs";

function clientFor(overrides: Parameters<typeof createRecordingPlugin>[0]) {
  const { plugin } = createRecordingPlugin(overrides);
  const capture = createCapturingLogger();
  const client = createTestClient(plugin, {
    logger: capture.logger,
    observability: createObservability({ defaultMetrics: false }),
  });
  return { client, entries: capture.entries };
}

describe("connectErrorFromUnknown", () => {
  it("answers internal with 'internal error' and never the exception's message", async () => {
    const { client } = clientFor({
      getProjectedCost: () => {
        throw new Error(secret);
      },
    });
    const error = await rejectionOf(client.costSource.getProjectedCost({ resource: ec2 }));
    expect(error.code).toBe(Code.Internal);
    expect(error.rawMessage).toBe("internal error");
    const detail = onlyErrorDetail(error);
    expect(detail.code).toBe(ErrorCode.UNSPECIFIED);
    expect(detail.category).toBe(ErrorCategory.UNSPECIFIED);
    expect(JSON.stringify([error.message, detail.message, detail.details])).not.toContain(
      "hunter2",
    );
  });

  it("logs the unexpected exception with its stack, service and method", async () => {
    const { client, entries } = clientFor({
      getActualCost: async () => {
        throw new TypeError("cannot read properties of undefined");
      },
    });
    await rejectionOf(
      client.costSource.getActualCost({
        resourceId: "i-1",
        start: { seconds: 1_700_000_000n, nanos: 0 },
        end: { seconds: 1_700_086_400n, nanos: 0 },
      }),
    );
    expect(entries).toHaveLength(1);
    const entry = entries[0];
    expect(entry?.level).toBe("error");
    expect(entry?.obj.service).toBe("costplugin.v1.CostSourceService");
    expect(entry?.obj.method).toBe("GetActualCost");
    const err = entry?.obj.err as Error;
    expect(err.message).toBe("cannot read properties of undefined");
    expect(err.stack).toContain("error-boundary.test.ts");
  });

  it("treats a thrown non-Error value as internal too", async () => {
    const { client, entries } = clientFor({
      getPricingSpec: () => {
        throw "a string";
      },
    });
    const error = await rejectionOf(client.costSource.getPricingSpec({ resource: ec2 }));
    expect(error.code).toBe(Code.Internal);
    expect(entries).toHaveLength(1);
  });

  it("turns a plain ConnectError from plugin code into internal, hiding its message", async () => {
    const { client, entries } = clientFor({
      getProjectedCost: () => {
        throw new ConnectError(`upstream said ${secret}`, Code.NotFound);
      },
    });
    const error = await rejectionOf(client.costSource.getProjectedCost({ resource: ec2 }));
    expect(error.code).toBe(Code.Internal);
    expect(error.rawMessage).toBe("internal error");
    expect(entries).toHaveLength(1);
  });

  it("passes through a ConnectError that already carries an ErrorDetail", async () => {
    const { client, entries } = clientFor({
      getProjectedCost: () => {
        throw connectErrorWithDetail({
          connectCode: Code.NotFound,
          message: "sku not in catalogue",
          errorCode: ErrorCode.RESOURCE_NOT_FOUND,
          category: ErrorCategory.PERMANENT,
        });
      },
    });
    const error = await rejectionOf(client.costSource.getProjectedCost({ resource: ec2 }));
    expect(error.code).toBe(Code.NotFound);
    expect(onlyErrorDetail(error).code).toBe(ErrorCode.RESOURCE_NOT_FOUND);
    expect(entries).toEqual([]);
  });

  it("answers deadline_exceeded, not internal, when the deadline aborts the plugin's work", async () => {
    const { client, entries } = clientFor({
      getProjectedCost: async (_request, context) => {
        // What a fetch or timer given the handler's signal does: reject with an AbortError.
        await sleep(60_000, undefined, { signal: context.signal });
        return {};
      },
    });
    const error = await rejectionOf(
      client.costSource.getProjectedCost({ resource: ec2 }, { timeoutMs: 20 }),
    );
    expect(error.code).toBe(Code.DeadlineExceeded);
    expect(entries).toEqual([]);
  });

  it("answers canceled when the caller aborts", async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let seen: ConnectError | undefined;
    const { plugin } = createRecordingPlugin({
      getProjectedCost: async (_request, context) => {
        started();
        try {
          await sleep(60_000, undefined, { signal: context.signal });
        } catch (error) {
          seen = error as ConnectError;
          throw error;
        }
        return {};
      },
    });
    const observability = createObservability({ defaultMetrics: false });
    const client = createTestClient(plugin, {
      observability,
      logger: createCapturingLogger().logger,
    });
    const controller = new AbortController();
    const call = client.costSource.getProjectedCost(
      { resource: ec2 },
      { signal: controller.signal },
    );
    await running;
    controller.abort();
    expect((await rejectionOf(call)).code).toBe(Code.Canceled);
    expect(seen).toBeDefined();
  });
});

describe("connectErrorFromAbortReason", () => {
  it("keeps the code of a ConnectError reason and adds an unspecified ErrorDetail", () => {
    const error = connectErrorFromAbortReason(new ConnectError("shutting down", Code.Unavailable));
    expect(error.code).toBe(Code.Unavailable);
    expect(error.rawMessage).toBe("shutting down");
    expect(onlyErrorDetail(error).code).toBe(ErrorCode.UNSPECIFIED);
  });

  it("maps a TimeoutError to deadline_exceeded", () => {
    const reason = new DOMException("signal timed out", "TimeoutError");
    expect(connectErrorFromAbortReason(reason).code).toBe(Code.DeadlineExceeded);
  });

  it("maps any other reason to canceled without repeating it", () => {
    const error = connectErrorFromAbortReason(new Error(secret));
    expect(error.code).toBe(Code.Canceled);
    expect(error.rawMessage).not.toContain("hunter2");
  });
});
