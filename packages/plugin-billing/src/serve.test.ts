import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { Transport } from "@connectrpc/connect";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { CostSourceService, ErrorCode, ObservabilityService } from "@costplugin/proto";
import { errorDetailFromConnectError } from "@costplugin/sdk";
import type { RunningServer } from "@costplugin/server";
import { startServer } from "@costplugin/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBillingPlugin } from "./billing-plugin.js";
import type { BillingStore } from "./billing-store.js";
import { fixtureSource, loadPluginFixture, openMigratedStore } from "./vendor-stand-in/index.js";

let store: BillingStore;
let server: RunningServer;

beforeAll(async () => {
  store = await openMigratedStore(":memory:");
  await loadPluginFixture(store, new Date("2026-03-06T01:00:00Z"));
  const plugin = createBillingPlugin({
    store,
    source: fixtureSource,
    staleAfterMs: 48 * 3_600_000,
    now: () => new Date("2026-03-06T09:00:00Z"),
  });
  server = await startServer({ plugin, logger: false });
});
afterAll(async () => {
  await server?.close();
  await store?.close().catch(() => {});
});

const transports: Array<[string, () => Transport]> = [
  ["gRPC", () => createGrpcTransport({ baseUrl: server.url })],
  ["Connect JSON", () => createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" })],
  [
    "Connect binary",
    () => createConnectTransport({ baseUrl: server.url, httpVersion: "2", useBinaryFormat: true }),
  ],
];

const at = (iso: string) => timestampFromDate(new Date(iso));

describe.each(transports)("serving the billing plugin over %s", (_name, transport) => {
  const costSource = () => createClient(CostSourceService, transport());

  it("answers GetActualCost with daily buckets inside [start, end)", async () => {
    const response = await costSource().getActualCost({
      resourceId: "i-web",
      start: at("2026-03-02T00:00:00Z"),
      end: at("2026-03-05T00:00:00Z"),
    });
    expect(response.results.map((r) => [Number(r.timestamp?.seconds), r.cost, r.source])).toEqual([
      [Date.parse("2026-03-02T00:00:00Z") / 1000, 2.25, fixtureSource],
      [Date.parse("2026-03-03T00:00:00Z") / 1000, 3.3, fixtureSource],
      [Date.parse("2026-03-04T00:00:00Z") / 1000, 4.4, fixtureSource],
    ]);
  });

  it("applies tag filters", async () => {
    const response = await costSource().getActualCost({
      resourceId: "i-dev",
      start: at("2026-03-01T00:00:00Z"),
      end: at("2026-03-06T00:00:00Z"),
      tags: { env: "prod" },
    });
    expect(response.results).toEqual([]);
    const dev = await costSource().getActualCost({
      resourceId: "i-dev",
      start: at("2026-03-01T00:00:00Z"),
      end: at("2026-03-06T00:00:00Z"),
      tags: { env: "dev" },
    });
    expect(dev.results.map((r) => r.cost)).toEqual([0.3]);
  });

  it("includes the last day when end is one millisecond past its start", async () => {
    const response = await costSource().getActualCost({
      resourceId: "i-web",
      start: at("2026-03-04T00:00:00Z"),
      end: at("2026-03-05T00:00:00.001Z"),
    });
    expect(response.results.map((r) => r.cost)).toEqual([4.4, 5.5]);
  });

  it("rejects hostile input with invalid_argument and keeps serving", async () => {
    const client = costSource();
    const attempts = [
      client.getActualCost({
        resourceId: "x".repeat(5000),
        start: at("2026-03-01T00:00:00Z"),
        end: at("2026-03-02T00:00:00Z"),
      }),
      client.getActualCost({
        resourceId: "i-web",
        start: at("2026-03-05T00:00:00Z"),
        end: at("2026-03-01T00:00:00Z"),
      }),
      client.getActualCost({ resourceId: "i-web" }),
      client.getActualCost({
        resourceId: "i-web",
        start: at("2026-03-01T00:00:00Z"),
        end: at("2026-03-02T00:00:00Z"),
        tags: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, "v"])),
      }),
      client.getActualCost({
        resourceId: "'; drop table billing_costs; --",
        start: at("2026-03-01T00:00:00Z"),
        end: at("2026-03-02T00:00:00Z"),
      }),
    ];
    const codes = await Promise.all(
      attempts.map((p) =>
        p.then(
          () => "ok",
          (e: unknown) => ConnectError.from(e).code,
        ),
      ),
    );
    expect(codes).toEqual([
      Code.InvalidArgument,
      Code.InvalidArgument,
      Code.InvalidArgument,
      Code.InvalidArgument,
      Code.NotFound,
    ]);
    const after = await client.getActualCost({
      resourceId: "i-web",
      start: at("2026-03-01T00:00:00Z"),
      end: at("2026-03-02T00:00:00Z"),
    });
    expect(after.results.map((r) => r.cost)).toEqual([1.1]);
  });

  it("carries the ErrorDetail of a not-found resource", async () => {
    const error = await costSource()
      .getActualCost({
        resourceId: "nope",
        start: at("2026-03-01T00:00:00Z"),
        end: at("2026-03-02T00:00:00Z"),
      })
      .catch((e: unknown) => ConnectError.from(e));
    expect(error).toBeInstanceOf(ConnectError);
    expect(errorDetailFromConnectError(error as ConnectError)?.code).toBe(
      ErrorCode.RESOURCE_NOT_FOUND,
    );
  });

  it("answers Supports and HealthCheck", async () => {
    await expect(
      costSource().supports({
        resource: { provider: "aws", resourceType: "AmazonEC2", region: "eu-west-1" },
      }),
    ).resolves.toMatchObject({ supported: true });
    const health = await createClient(ObservabilityService, transport()).healthCheck({});
    expect(health.message).toBe("last successful pull at 2026-03-06T01:00:00.000Z");
  });
});

describe("serving the billing plugin", () => {
  it("answers a garbage binary body with an error and keeps serving", async () => {
    const response = await fetch(`${server.url}/costplugin.v1.CostSourceService/GetActualCost`, {
      method: "POST",
      headers: { "content-type": "application/proto" },
      body: new Uint8Array([0xff, 0xff, 0xff, 0x0f, 0x01]),
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    await response.arrayBuffer();
    const client = createClient(
      CostSourceService,
      createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }),
    );
    await expect(client.name({})).resolves.toMatchObject({
      name: `costplugin-billing (${fixtureSource})`,
    });
  });
});
