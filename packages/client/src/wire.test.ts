import { Code, ConnectError } from "@connectrpc/connect";
import type { GetProjectedCostRequest } from "@costplugin/proto";
import { ErrorCategory, ErrorCode, HealthCheckResponse_Status } from "@costplugin/proto";
import { definePlugin, PluginError } from "@costplugin/sdk";
import type { RunningServer } from "@costplugin/server";
import { startServer } from "@costplugin/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CostPluginClient } from "./index.js";
import { createCostPluginClient } from "./index.js";
import { createCostPluginNodeClient, errorDetailFromError, isRetryableError } from "./node.js";

// The status code of each ErrorCode, as the protocol defines it.
const expectedStatus: Readonly<Record<string, Code>> = {
  NETWORK_TIMEOUT: Code.Unavailable,
  SERVICE_UNAVAILABLE: Code.Unavailable,
  RATE_LIMITED: Code.ResourceExhausted,
  TEMPORARY_FAILURE: Code.Unavailable,
  CIRCUIT_OPEN: Code.Unavailable,
  INVALID_RESOURCE: Code.InvalidArgument,
  RESOURCE_NOT_FOUND: Code.NotFound,
  INVALID_TIME_RANGE: Code.InvalidArgument,
  UNSUPPORTED_REGION: Code.Unimplemented,
  PERMISSION_DENIED: Code.PermissionDenied,
  DATA_CORRUPTION: Code.DataLoss,
  INVALID_CREDENTIALS: Code.PermissionDenied,
  MISSING_API_KEY: Code.FailedPrecondition,
  INVALID_ENDPOINT: Code.FailedPrecondition,
  INVALID_PROVIDER: Code.Unimplemented,
  PLUGIN_NOT_CONFIGURED: Code.FailedPrecondition,
};
const errorCodeNames = Object.keys(expectedStatus);

function expectedCategory(code: ErrorCode): ErrorCategory {
  if (code <= 5) return ErrorCategory.TRANSIENT;
  if (code <= 11) return ErrorCategory.PERMANENT;
  return ErrorCategory.CONFIGURATION;
}

/** Transient codes carry a retry-after of their own number, to tell them apart. */
function retryAfterFor(code: ErrorCode): number | undefined {
  return expectedCategory(code) === ErrorCategory.TRANSIENT ? code * 11 : undefined;
}

const secretInPluginFailure = "postgres://admin:hunter2@db.internal/costs";
const calls = new Map<string, number>();

function count(key: string): number {
  const next = (calls.get(key) ?? 0) + 1;
  calls.set(key, next);
  return next;
}

/**
 * The test plugin: the SKU of GetProjectedCost picks the behaviour. An ErrorCode name raises
 * that PluginError; `flaky-<id>` fails twice with TEMPORARY_FAILURE (retry after 0 s) and
 * then answers; `down-<id>` always fails with SERVICE_UNAVAILABLE; `crash` throws a plain
 * Error holding a secret; `hang` waits until the call is aborted.
 */
const plugin = definePlugin({
  name: "wire-test-plugin",
  async getProjectedCost(request: GetProjectedCostRequest, context) {
    const sku = request.resource?.sku ?? "";
    const code = ErrorCode[sku as keyof typeof ErrorCode];
    if (code !== undefined && sku in expectedStatus) {
      throw new PluginError(code, `plugin failed with ${sku}`, {
        retryAfterSeconds: retryAfterFor(code),
        details: { sku },
      });
    }
    if (sku.startsWith("flaky-") && count(sku) <= 2) {
      throw new PluginError(ErrorCode.TEMPORARY_FAILURE, "try again", { retryAfterSeconds: 0 });
    }
    if (sku.startsWith("down-")) {
      count(sku);
      throw new PluginError(ErrorCode.SERVICE_UNAVAILABLE, "vendor down");
    }
    if (sku === "crash") {
      count(sku);
      throw new Error(`cannot connect to ${secretInPluginFailure}`);
    }
    if (sku === "hang") {
      await new Promise((_resolve, reject) => {
        context.signal.addEventListener("abort", () => reject(context.signal.reason), {
          once: true,
        });
      });
    }
    return { unitPrice: 0.0104, currency: "USD", costPerMonth: 7.592, billingDetail: sku };
  },
});

function resource(sku: string) {
  return { resource: { provider: "aws", resourceType: "ec2", sku, region: "us-east-1" } };
}

interface Variant {
  readonly label: string;
  create(baseUrl: string, options?: { retry?: false; circuitBreaker?: false }): CostPluginClient;
}

const noResilience = { retry: false, circuitBreaker: false } as const;

const variants: Variant[] = [
  {
    label: "Connect JSON (browser entry, fetch, HTTP/1.1)",
    create: (baseUrl, options = noResilience) =>
      createCostPluginClient({ baseUrl, protocol: "connect-json", ...options }),
  },
  {
    label: "Connect binary (browser entry, fetch, HTTP/1.1)",
    create: (baseUrl, options = noResilience) =>
      createCostPluginClient({ baseUrl, protocol: "connect-binary", ...options }),
  },
  {
    label: "Connect JSON over GET (browser entry, fetch, HTTP/1.1)",
    create: (baseUrl, options = noResilience) =>
      createCostPluginClient({ baseUrl, useHttpGet: true, ...options }),
  },
  {
    label: "Connect binary over GET (browser entry, fetch, HTTP/1.1)",
    create: (baseUrl, options = noResilience) =>
      createCostPluginClient({
        baseUrl,
        protocol: "connect-binary",
        useHttpGet: true,
        ...options,
      }),
  },
  {
    label: "gRPC-web (browser entry, fetch, HTTP/1.1)",
    create: (baseUrl, options = noResilience) =>
      createCostPluginClient({ baseUrl, protocol: "grpc-web", ...options }),
  },
  {
    label: "gRPC (node entry, HTTP/2)",
    create: (baseUrl, options = noResilience) =>
      track(createCostPluginNodeClient({ baseUrl, protocol: "grpc", ...options })),
  },
  {
    label: "Connect binary (node entry, HTTP/2)",
    create: (baseUrl, options = noResilience) =>
      track(
        createCostPluginNodeClient({
          baseUrl,
          protocol: "connect-binary",
          httpVersion: "2",
          ...options,
        }),
      ),
  },
  {
    label: "gRPC-web (node entry, HTTP/2)",
    create: (baseUrl, options = noResilience) =>
      track(
        createCostPluginNodeClient({ baseUrl, protocol: "grpc-web", httpVersion: "2", ...options }),
      ),
  },
  {
    label: "Connect JSON (node entry, HTTP/1.1)",
    create: (baseUrl, options = noResilience) =>
      track(createCostPluginNodeClient({ baseUrl, protocol: "connect-json", ...options })),
  },
];

const nodeClients: Array<{ close(): void }> = [];
function track<T extends { close(): void }>(client: T): T {
  nodeClients.push(client);
  return client;
}

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ plugin, host: "127.0.0.1", port: 0, logger: false });
});

afterAll(async () => {
  for (const client of nodeClients) client.close();
  await server?.close();
});

async function failure(promise: Promise<unknown>): Promise<ConnectError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ConnectError)) throw new Error(`expected a ConnectError, got ${error}`);
  return error;
}

describe.each(variants)("over $label", (variant) => {
  let client: CostPluginClient;
  beforeAll(() => {
    client = variant.create(server.url);
  });

  it("answers Name, GetProjectedCost and HealthCheck", async () => {
    expect((await client.costSource.name({})).name).toBe("wire-test-plugin");
    const cost = await client.costSource.getProjectedCost(resource("t3.micro"));
    expect(cost.unitPrice).toBe(0.0104);
    expect(cost.currency).toBe("USD");
    const health = await client.observability.healthCheck({});
    expect(health.status).toBe(HealthCheckResponse_Status.SERVING);
  });

  it.each(errorCodeNames)("decodes the ErrorDetail of %s", async (name) => {
    const code = ErrorCode[name as keyof typeof ErrorCode];
    const error = await failure(client.costSource.getProjectedCost(resource(name)));
    expect(error.code).toBe(expectedStatus[name]);
    expect(error.rawMessage).toBe(`plugin failed with ${name}`);
    const detail = errorDetailFromError(error);
    expect(detail).toBeDefined();
    expect(detail?.code).toBe(code);
    expect(detail?.category).toBe(expectedCategory(code));
    expect(detail?.message).toBe(`plugin failed with ${name}`);
    expect(detail?.retryAfterSeconds).toBe(retryAfterFor(code));
    expect(detail?.details).toEqual({ sku: name });
    expect(detail?.timestamp).toBeDefined();
  });

  it("reports an unexpected plugin exception as internal without an ErrorCode or secret", async () => {
    const error = await failure(client.costSource.getProjectedCost(resource("crash")));
    expect(error.code).toBe(Code.Internal);
    expect(errorDetailFromError(error)?.code ?? ErrorCode.UNSPECIFIED).toBe(ErrorCode.UNSPECIFIED);
    expect(isRetryableError(error)).toBe(false);
    expect(`${error.message} ${JSON.stringify(error)}`).not.toContain("hunter2");
  });

  it("ends a call at its deadline with deadline_exceeded and keeps serving", async () => {
    const error = await failure(
      client.costSource.getProjectedCost(resource("hang"), { timeoutMs: 50 }),
    );
    expect(error.code).toBe(Code.DeadlineExceeded);
    expect((await client.costSource.name({})).name).toBe("wire-test-plugin");
  });
});

describe.each(variants)("resilience over $label", (variant) => {
  it("retries a transient failure until the plugin answers", async () => {
    const client = variant.create(server.url, {});
    const sku = `flaky-${variant.label}`;
    const cost = await client.costSource.getProjectedCost(resource(sku));
    expect(cost.billingDetail).toBe(sku);
    expect(calls.get(sku)).toBe(3);
  });

  it("does not retry an unexpected plugin exception", async () => {
    const client = variant.create(server.url, {});
    const before = calls.get("crash") ?? 0;
    await failure(client.costSource.getProjectedCost(resource("crash")));
    expect(calls.get("crash")).toBe(before + 1);
  });

  it("opens the circuit after five failures and then fails fast with CIRCUIT_OPEN", async () => {
    const client = variant.create(server.url, { retry: false });
    const sku = `down-${variant.label}`;
    for (let i = 0; i < 5; i++) {
      const error = await failure(client.costSource.getProjectedCost(resource(sku)));
      expect(errorDetailFromError(error)?.code).toBe(ErrorCode.SERVICE_UNAVAILABLE);
    }
    const error = await failure(client.costSource.getProjectedCost(resource(sku)));
    expect(error.code).toBe(Code.Unavailable);
    expect(errorDetailFromError(error)?.code).toBe(ErrorCode.CIRCUIT_OPEN);
    expect(errorDetailFromError(error)?.retryAfterSeconds).toBe(60);
    expect(calls.get(sku)).toBe(5);
  });
});

describe("createCostPluginNodeClient", () => {
  it.each(["1.1", "2"] as const)("reconnects after close() over HTTP/%s", async (httpVersion) => {
    const client = createCostPluginNodeClient({
      baseUrl: server.url,
      protocol: "connect-binary",
      httpVersion,
    });
    expect((await client.costSource.name({})).name).toBe("wire-test-plugin");
    client.close();
    expect((await client.costSource.name({})).name).toBe("wire-test-plugin");
    client.close();
  });

  it("reports a server that is not listening as unavailable over gRPC", async () => {
    const client = track(
      createCostPluginNodeClient({
        baseUrl: "http://127.0.0.1:1",
        protocol: "grpc",
        retry: false,
      }),
    );
    const error = await failure(client.costSource.name({}));
    expect(error.code).toBe(Code.Unavailable);
  });
});
