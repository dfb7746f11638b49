import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient, createRouterTransport } from "@connectrpc/connect";
import { CostSourceService, ErrorCode } from "@costplugin/proto";
import { createPluginRoutes, definePlugin, PluginError } from "@costplugin/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTracing, tracingOptionsFromEnv } from "./tracing.js";

interface OtlpSpan {
  traceId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
  status?: { code?: number };
}

let collector: Server;
let received: OtlpSpan[];
let collectorUrl: string;

beforeEach(async () => {
  received = [];
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
      };
      for (const rs of body.resourceSpans)
        for (const ss of rs.scopeSpans) received.push(...ss.spans);
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  }).listen(0, "127.0.0.1");
  await new Promise((r) => collector.once("listening", r));
  collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await new Promise((r) => collector.close(r));
});

const plugin = definePlugin({
  name: "traced",
  getProjectedCost: () => ({ unitPrice: 1, currency: "USD", costPerMonth: 730 }),
  getPricingSpec: () => {
    throw new PluginError(ErrorCode.RESOURCE_NOT_FOUND, "no such sku");
  },
});

const resource = { provider: "aws", resourceType: "ec2", sku: "t3.micro", region: "us-east-1" };

function attr(span: OtlpSpan, key: string): unknown {
  const v = span.attributes.find((a) => a.key === key)?.value;
  return v === undefined ? undefined : Object.values(v)[0];
}

describe("tracingOptionsFromEnv", () => {
  it("is off without an endpoint and when the SDK is disabled", () => {
    expect(tracingOptionsFromEnv({}).endpoint).toBeUndefined();
    expect(createTracing(tracingOptionsFromEnv({}))).toBeUndefined();
    expect(
      tracingOptionsFromEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://x:4318",
        OTEL_SDK_DISABLED: "true",
      }).endpoint,
    ).toBeUndefined();
    expect(
      tracingOptionsFromEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://x:4318",
        OTEL_TRACES_EXPORTER: "none",
      }).endpoint,
    ).toBeUndefined();
  });

  it("derives the traces path from the generic endpoint and prefers the specific one", () => {
    expect(tracingOptionsFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318/" }).endpoint).toBe(
      "http://c:4318/v1/traces",
    );
    expect(
      tracingOptionsFromEnv({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://t:1/x",
      }).endpoint,
    ).toBe("http://t:1/x");
    expect(
      tracingOptionsFromEnv({ OTEL_EXPORTER_OTLP_HEADERS: "api-key=a%3Db,x=y" }).headers,
    ).toEqual({
      "api-key": "a=b",
      x: "y",
    });
  });
});

describe("createTracing", () => {
  it("exports one server span per RPC over OTLP, continuing an incoming traceparent", async () => {
    const tracing = createTracing({
      endpoint: `${collectorUrl}/v1/traces`,
      serviceName: "test",
      headers: {},
    });
    expect(tracing).toBeDefined();
    if (!tracing) return;
    const transport = createRouterTransport(createPluginRoutes(plugin), {
      router: { interceptors: [tracing.interceptor] },
    });
    const client = createClient(CostSourceService, transport);
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    await client.getProjectedCost(
      { resource },
      { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } },
    );
    await expect(client.getPricingSpec({ resource })).rejects.toThrow(/no such sku/);
    await tracing.shutdown();

    expect(received).toHaveLength(2);
    const ok = received.find((s) => s.name === "costplugin.v1.CostSourceService/GetProjectedCost");
    const failed = received.find(
      (s) => s.name === "costplugin.v1.CostSourceService/GetPricingSpec",
    );
    expect(ok?.traceId).toBe(traceId);
    expect(ok?.parentSpanId).toBe("00f067aa0ba902b7");
    expect(ok?.kind).toBe(2); // SERVER
    expect(attr(ok as OtlpSpan, "rpc.method")).toBe("GetProjectedCost");
    expect(attr(ok as OtlpSpan, "rpc.service")).toBe("costplugin.v1.CostSourceService");
    expect(attr(failed as OtlpSpan, "rpc.connect_rpc.error_code")).toBe("not_found");
    expect(failed?.status?.code).toBe(2); // ERROR
  });
});
