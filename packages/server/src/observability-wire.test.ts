import { on } from "node:events";
import { fileURLToPath } from "node:url";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { Client, Transport } from "@connectrpc/connect";
import { ConnectError, createClient } from "@connectrpc/connect";
import { codeToString } from "@connectrpc/connect/protocol-connect";
import {
  createConnectTransport,
  createGrpcTransport,
  createGrpcWebTransport,
} from "@connectrpc/connect-node";
import type { Metric } from "@costplugin/proto";
import {
  CostSourceService,
  HealthCheckResponse_Status,
  MetricType,
  ObservabilityService,
  SLIStatus,
} from "@costplugin/proto";
import type { Observability } from "@costplugin/sdk";
import { createObservability, defaultDurationBuckets, rpcMetricNames } from "@costplugin/sdk";
import type { FakeClock } from "@costplugin/sdk/testing";
import { createFakeClock } from "@costplugin/sdk/testing";
import * as grpcJs from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "./start-server.js";
import { startServer } from "./start-server.js";
import type { ObservabilityPluginControl } from "./testdata/observability-plugin.js";
import { createObservabilityPlugin } from "./testdata/observability-plugin.js";
import type { PrometheusFamily } from "./testdata/prometheus-text.js";
import { parsePrometheusText } from "./testdata/prometheus-text.js";

const protoRoot = fileURLToPath(new URL("../../../proto", import.meta.url));
const costSourceName = CostSourceService.typeName;
const observabilityName = ObservabilityService.typeName;
const startMs = Date.UTC(2025, 0, 1);

type Protocol = "grpc" | "grpc-web" | "connect";

/** One real client of the server, speaking one protocol. */
interface WireClient {
  readonly name: string;
  readonly protocol: Protocol;
  readonly costSource: Client<typeof CostSourceService>;
  readonly observability: Client<typeof ObservabilityService>;
}

/** gRPC over h2c, gRPC-web over HTTP/1.1, Connect JSON POST over HTTP/1.1, Connect GET over h2c. */
function wireClients(baseUrl: string): WireClient[] {
  const made: Array<[string, Protocol, Transport]> = [
    ["gRPC over h2c", "grpc", createGrpcTransport({ baseUrl })],
    ["gRPC-web over HTTP/1.1", "grpc-web", createGrpcWebTransport({ baseUrl, httpVersion: "1.1" })],
    [
      "Connect JSON over HTTP/1.1",
      "connect",
      createConnectTransport({ baseUrl, httpVersion: "1.1" }),
    ],
    [
      "Connect GET binary over h2c",
      "connect",
      createConnectTransport({
        baseUrl,
        httpVersion: "2",
        useHttpGet: true,
        useBinaryFormat: true,
      }),
    ],
  ];
  return made.map(([name, protocol, transport]) => ({
    name,
    protocol,
    costSource: createClient(CostSourceService, transport),
    observability: createClient(ObservabilityService, transport),
  }));
}

/** The Connect code label ("ok" or snake_case) a call ended with, as the metrics spell it. */
async function codeOf(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return "ok";
  } catch (error) {
    return codeToString(ConnectError.from(error).code);
  }
}

const resourceOf = (sku: string) => ({
  provider: "aws",
  resourceType: "ec2",
  sku,
  region: "us-east-1",
});

/** A sample's identity: its own name and its labels, sorted. */
function sampleKey(name: string, labels: Readonly<Record<string, string>>): string {
  const sorted = Object.entries(labels)
    .filter(([key]) => key !== "__name__")
    .sort(([a], [b]) => a.localeCompare(b));
  return `${name}{${sorted.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(",")}}`;
}

/** Every sample of a GetMetrics family, by `sampleKey`. */
function samplesOfMetric(metric: Metric): Map<string, number> {
  return new Map(
    metric.samples.map((s) => [sampleKey(s.labels.__name__ ?? metric.name, s.labels), s.value]),
  );
}

/** Every sample of a parsed `/metrics` family, by `sampleKey`. */
function samplesOfFamily(family: PrometheusFamily): Map<string, number> {
  return new Map(family.samples.map((s) => [sampleKey(s.name, s.labels), s.value]));
}

const typeNames: Record<MetricType, string> = {
  [MetricType.UNSPECIFIED]: "untyped",
  [MetricType.COUNTER]: "counter",
  [MetricType.GAUGE]: "gauge",
  [MetricType.HISTOGRAM]: "histogram",
  [MetricType.SUMMARY]: "summary",
};

async function scrape(server: RunningServer): Promise<PrometheusFamily[]> {
  const response = await fetch(`${server.url}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  return parsePrometheusText(await response.text());
}

function family(families: readonly PrometheusFamily[], name: string): PrometheusFamily {
  const found = families.find((f) => f.name === name);
  if (found === undefined) throw new Error(`/metrics has no ${name}`);
  return found;
}

function metric(metrics: readonly Metric[], name: string): Metric {
  const found = metrics.find((m) => m.name === name);
  if (found === undefined) throw new Error(`GetMetrics has no ${name}`);
  return found;
}

/** Counter samples of CostSourceService as `method|protocol|code` => count. */
function costSourceCounts(samples: Map<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [key, value] of samples) {
    const labels = Object.fromEntries(
      [...key.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1] as string, m[2] as string]),
    );
    if (labels.service !== costSourceName) continue;
    out.set(`${labels.method}|${labels.protocol}|${labels.code}`, value);
  }
  return out;
}

/** One planned call and what it must produce. */
interface PlannedCall {
  readonly client: WireClient;
  readonly method: "GetProjectedCost" | "GetPricingSpec" | "Supports";
  readonly code: string;
  /** Its duration on the fake clock, in seconds. */
  readonly seconds: number;
  readonly run: () => Promise<unknown>;
}

const pluginErrorCases: ReadonlyArray<readonly [string, string]> = [
  ["RESOURCE_NOT_FOUND", "not_found"],
  ["INVALID_RESOURCE", "invalid_argument"],
  ["RATE_LIMITED", "resource_exhausted"],
  ["SERVICE_UNAVAILABLE", "unavailable"],
  ["PERMISSION_DENIED", "permission_denied"],
  ["DATA_CORRUPTION", "data_loss"],
  ["MISSING_API_KEY", "failed_precondition"],
  ["UNSUPPORTED_REGION", "unimplemented"],
];

/** Durations of the slow calls, in ms: on a bucket bound (inclusive), and inside three buckets. */
const slowCallsMs = [2.5, 30, 700, 3000];

/** Every call the counting tests make through one client. */
function planFor(client: WireClient): PlannedCall[] {
  const projected = (sku: string, code: string, seconds = 0): PlannedCall => ({
    client,
    method: "GetProjectedCost",
    code,
    seconds,
    run: () => client.costSource.getProjectedCost({ resource: resourceOf(sku) }),
  });
  return [
    projected("ok", "ok"),
    projected("ok", "ok"),
    projected("ok", "ok"),
    ...pluginErrorCases.map(([errorCode, code]) => projected(`fail:${errorCode}`, code)),
    projected("boom", "internal"),
    // Refused by the SDK's validation before the plugin runs: still a counted call.
    {
      client,
      method: "GetProjectedCost",
      code: "invalid_argument",
      seconds: 0,
      run: () => client.costSource.getProjectedCost({}),
    },
    ...slowCallsMs.map(
      (ms): PlannedCall => ({
        client,
        method: "GetPricingSpec",
        code: "ok",
        seconds: ms / 1000,
        run: () => client.costSource.getPricingSpec({ resource: resourceOf(`slow:${ms}`) }),
      }),
    ),
    {
      client,
      method: "Supports",
      code: "ok",
      seconds: 0,
      run: () => client.costSource.supports({ resource: resourceOf("ok") }),
    },
  ];
}

/** Expected `_bucket`, `_sum` and `_count` samples of one histogram series. */
function expectedHistogram(
  labels: Record<string, string>,
  durations: readonly number[],
): Map<string, number> {
  const name = rpcMetricNames.duration;
  const out = new Map<string, number>();
  for (const bound of [...defaultDurationBuckets, Number.POSITIVE_INFINITY]) {
    const le = bound === Number.POSITIVE_INFINITY ? "+Inf" : String(bound);
    out.set(
      sampleKey(`${name}_bucket`, { ...labels, le }),
      durations.filter((d) => d <= bound).length,
    );
  }
  out.set(
    sampleKey(`${name}_sum`, labels),
    durations.reduce((sum, d) => sum + d, 0),
  );
  out.set(sampleKey(`${name}_count`, labels), durations.length);
  return out;
}

function pick(samples: Map<string, number>, keys: Iterable<string>): Map<string, number> {
  return new Map([...keys].map((key) => [key, samples.get(key) ?? Number.NaN]));
}

describe.each([
  { fastPath: true, path: "the fast path" },
  { fastPath: false, path: "connect-fastify" },
])("startServer metrics over the wire ($path)", ({ fastPath }) => {
  let server: RunningServer;
  let clock: FakeClock;
  let control: ObservabilityPluginControl;
  let clients: WireClient[];
  const plan: PlannedCall[] = [];

  beforeAll(async () => {
    clock = createFakeClock(startMs);
    const made = createObservabilityPlugin(clock);
    control = made.control;
    server = await startServer({
      plugin: made.plugin,
      logger: false,
      fastPath,
      observability: createObservability({ clock }),
    });
    clients = wireClients(server.url);
  });
  afterAll(() => server.close());

  it("answers every planned call with its code in every protocol", async () => {
    for (const client of clients) plan.push(...planFor(client));
    for (const call of plan) {
      expect(`${call.client.name} ${call.method}: ${await codeOf(call.run)}`).toBe(
        `${call.client.name} ${call.method}: ${call.code}`,
      );
    }
  });

  it("counts requests by method, protocol and code exactly, in GetMetrics and /metrics", async () => {
    const expected = new Map<string, number>();
    for (const call of plan) {
      const key = `${call.method}|${call.client.protocol}|${call.code}`;
      expected.set(key, (expected.get(key) ?? 0) + 1);
    }
    // Spot checks of the plan itself: four clients, two of them Connect.
    expect(expected.get("GetProjectedCost|connect|ok")).toBe(6);
    expect(expected.get("GetProjectedCost|grpc|invalid_argument")).toBe(2);
    expect(expected.get("GetPricingSpec|grpc-web|ok")).toBe(4);

    const { metrics } = await (clients[2] as WireClient).observability.getMetrics({
      metricNames: [rpcMetricNames.requests],
    });
    expect(metrics.map((m) => m.name)).toEqual([rpcMetricNames.requests]);
    expect(metrics[0]?.type).toBe(MetricType.COUNTER);
    expect(costSourceCounts(samplesOfMetric(metrics[0] as Metric))).toEqual(expected);

    const scraped = family(await scrape(server), rpcMetricNames.requests);
    expect(scraped.type).toBe("counter");
    expect(costSourceCounts(samplesOfFamily(scraped))).toEqual(expected);
  });

  it("places each call's duration in the right histogram buckets", async () => {
    const expected = new Map<string, number>();
    for (const method of ["GetProjectedCost", "GetPricingSpec", "Supports"]) {
      for (const protocol of ["grpc", "grpc-web", "connect"]) {
        const durations = plan
          .filter((c) => c.method === method && c.client.protocol === protocol)
          .map((c) => c.seconds);
        const labels = { service: costSourceName, method, protocol };
        for (const [key, value] of expectedHistogram(labels, durations)) expected.set(key, value);
      }
    }
    // 2.5 ms sits on the 0.0025 bound, which counts it (le is "less or equal").
    expect(
      expected.get(
        sampleKey(`${rpcMetricNames.duration}_bucket`, {
          service: costSourceName,
          method: "GetPricingSpec",
          protocol: "grpc",
          le: "0.0025",
        }),
      ),
    ).toBe(1);

    const { metrics } = await (clients[0] as WireClient).observability.getMetrics({
      metricNames: [rpcMetricNames.duration],
    });
    const fromRpc = samplesOfMetric(metric(metrics, rpcMetricNames.duration));
    expect(pick(fromRpc, expected.keys())).toEqual(expected);
    const fromText = samplesOfFamily(family(await scrape(server), rpcMetricNames.duration));
    expect(pick(fromText, expected.keys())).toEqual(expected);
  });

  it("shows a running call in the in-flight gauge until it answers", async () => {
    const key = sampleKey(rpcMetricNames.inFlight, {
      service: costSourceName,
      method: "GetProjectedCost",
    });
    const inFlightNow = async () => {
      const { metrics } = await (clients[1] as WireClient).observability.getMetrics({
        metricNames: [rpcMetricNames.inFlight],
      });
      const fromRpc = samplesOfMetric(metric(metrics, rpcMetricNames.inFlight)).get(key);
      const fromText = samplesOfFamily(family(await scrape(server), rpcMetricNames.inFlight)).get(
        key,
      );
      return { fromRpc, fromText };
    };
    const entered = control.held();
    const running = (clients[0] as WireClient).costSource.getProjectedCost({
      resource: resourceOf("hold"),
    });
    await entered;
    expect(await inFlightNow()).toEqual({ fromRpc: 1, fromText: 1 });
    control.release();
    await running;
    expect(await inFlightNow()).toEqual({ fromRpc: 0, fromText: 0 });
  });

  it("serves /metrics that parses strictly and matches GetMetrics sample for sample", async () => {
    const response = await (clients[2] as WireClient).observability.getMetrics({
      format: "prometheus",
    });
    expect(response.format).toBe("prometheus");
    const families = await scrape(server);

    // The same families, in the same order, with the same types and help.
    expect(families.map((f) => [f.name, f.type, f.help])).toEqual(
      response.metrics.map((m) => [m.name, typeNames[m.type], m.help]),
    );
    expect(families.map((f) => f.name)).toEqual(
      expect.arrayContaining([
        rpcMetricNames.requests,
        rpcMetricNames.duration,
        rpcMetricNames.inFlight,
        "process_resident_memory_bytes",
        "nodejs_eventloop_lag_seconds",
      ]),
    );

    // The RPC families hold the same samples, except for the GetMetrics call itself: it was
    // running while GetMetrics collected and had finished (in 0 s on the fake clock) by the scrape.
    const ownLabels = { service: observabilityName, method: "GetMetrics" };
    const own = { ...ownLabels, protocol: "connect" };
    for (const name of [
      rpcMetricNames.requests,
      rpcMetricNames.duration,
      rpcMetricNames.inFlight,
    ]) {
      const expected = samplesOfMetric(metric(response.metrics, name));
      const bump = (key: string, by: number) => expected.set(key, (expected.get(key) ?? 0) + by);
      if (name === rpcMetricNames.requests) bump(sampleKey(name, { ...own, code: "ok" }), 1);
      if (name === rpcMetricNames.inFlight) bump(sampleKey(name, ownLabels), -1);
      if (name === rpcMetricNames.duration) {
        for (const bound of [...defaultDurationBuckets.map(String), "+Inf"]) {
          bump(sampleKey(`${name}_bucket`, { ...own, le: bound }), 1);
        }
        bump(sampleKey(`${name}_count`, own), 1);
        bump(sampleKey(`${name}_sum`, own), 0);
      }
      expect(samplesOfFamily(family(families, name))).toEqual(expected);
    }
  });

  it("filters GetMetrics by name and echoes the json format", async () => {
    const response = await (clients[0] as WireClient).observability.getMetrics({
      metricNames: [rpcMetricNames.inFlight, "no_such_metric"],
      format: "json",
    });
    expect(response.format).toBe("json");
    expect(response.metrics.map((m) => m.name)).toEqual([rpcMetricNames.inFlight]);
  });
});

describe("startServer service level indicators over the wire", () => {
  let server: RunningServer;
  let clock: FakeClock;
  let clients: WireClient[];
  const at = (seconds: number) => timestampFromMs(startMs + seconds * 1000);

  beforeAll(async () => {
    clock = createFakeClock(startMs);
    server = await startServer({
      plugin: createObservabilityPlugin(clock).plugin,
      logger: false,
      observability: createObservability({
        clock,
        defaultMetrics: false,
        sli: {
          bucketSeconds: 10,
          targets: { availability: 90, errorRate: 10, latencyP95: 1, latencyP99: 2 },
        },
      }),
    });
    clients = wireClients(server.url).slice(0, 3);
    // Three phases in three 10 s buckets, each call through the next protocol in turn.
    const phases: Array<[number, string[]]> = [
      [
        0,
        [
          ...Array<string>(15).fill("slow:100"),
          "slow:100+fail:RESOURCE_NOT_FOUND",
          "slow:100+fail:RESOURCE_NOT_FOUND",
          "slow:100+fail:RATE_LIMITED",
          "slow:500",
          "slow:1500",
        ],
      ],
      [
        60,
        [
          ...Array<string>(7).fill("ok"),
          "fail:INVALID_RESOURCE",
          "boom",
          "slow:3000+fail:SERVICE_UNAVAILABLE",
        ],
      ],
      [
        120,
        [...Array<string>(7).fill("ok"), "fail:DATA_CORRUPTION", "boom", "fail:TEMPORARY_FAILURE"],
      ],
    ];
    let turn = 0;
    for (const [offsetSeconds, skus] of phases) {
      clock.set(startMs + offsetSeconds * 1000);
      for (const sku of skus) {
        const client = clients[turn++ % clients.length] as WireClient;
        await codeOf(() => client.costSource.getProjectedCost({ resource: resourceOf(sku) }));
      }
    }
  });
  afterAll(() => server.close());

  const { MEETING_TARGET, WARNING, CRITICAL, UNSPECIFIED } = {
    MEETING_TARGET: SLIStatus.SLI_STATUS_MEETING_TARGET,
    WARNING: SLIStatus.SLI_STATUS_WARNING,
    CRITICAL: SLIStatus.SLI_STATUS_CRITICAL,
    UNSPECIFIED: SLIStatus.SLI_STATUS_UNSPECIFIED,
  };

  async function slis(client: WireClient, fromSeconds: number, toSeconds: number) {
    const response = await client.observability.getServiceLevelIndicators({
      timeRange: { start: at(fromSeconds), end: at(toSeconds) },
    });
    return Object.fromEntries(
      response.slis.map((s) => [
        s.name,
        { value: s.value, target: s.targetValue, status: s.status },
      ]),
    );
  }

  it.each([
    {
      range: "the first bucket: only caller errors, p95 and p99 within target",
      from: 0,
      to: 10,
      expected: {
        availability: { value: 100, target: 90, status: MEETING_TARGET },
        error_rate: { value: 0, target: 10, status: MEETING_TARGET },
        latency_p95: { value: 0.5, target: 1, status: MEETING_TARGET },
        latency_p99: { value: 1.5, target: 2, status: MEETING_TARGET },
      },
    },
    {
      range: "the second bucket: 2 faults in 10, a 3 s call",
      from: 60,
      to: 70,
      expected: {
        availability: { value: 80, target: 90, status: WARNING },
        error_rate: { value: 20, target: 10, status: WARNING },
        latency_p95: { value: 3, target: 1, status: CRITICAL },
        latency_p99: { value: 3, target: 2, status: WARNING },
      },
    },
    {
      range: "the third bucket: 3 faults in 10",
      from: 120,
      to: 130,
      expected: {
        availability: { value: 70, target: 90, status: CRITICAL },
        error_rate: { value: 30, target: 10, status: CRITICAL },
        latency_p95: { value: 0, target: 1, status: MEETING_TARGET },
        latency_p99: { value: 0, target: 2, status: MEETING_TARGET },
      },
    },
    {
      range: "all three buckets: 5 faults in 40",
      from: 0,
      to: 130,
      expected: {
        availability: { value: 87.5, target: 90, status: WARNING },
        error_rate: { value: 12.5, target: 10, status: WARNING },
        latency_p95: { value: 0.5, target: 1, status: MEETING_TARGET },
        latency_p99: { value: 3, target: 2, status: WARNING },
      },
    },
    {
      range: "a second inside the second bucket (ranges resolve to whole buckets)",
      from: 61.5,
      to: 62,
      expected: {
        availability: { value: 80, target: 90, status: WARNING },
        error_rate: { value: 20, target: 10, status: WARNING },
        latency_p95: { value: 3, target: 1, status: CRITICAL },
        latency_p99: { value: 3, target: 2, status: WARNING },
      },
    },
    {
      range: "a stretch without requests",
      from: 20,
      to: 50,
      expected: {
        availability: { value: 100, target: 90, status: UNSPECIFIED },
        error_rate: { value: 0, target: 10, status: UNSPECIFIED },
        latency_p95: { value: 0, target: 1, status: UNSPECIFIED },
        latency_p99: { value: 0, target: 2, status: UNSPECIFIED },
      },
    },
  ])("computes the SLIs of $range the same in every protocol", async ({ from, to, expected }) => {
    for (const client of clients) {
      expect({ client: client.name, slis: await slis(client, from, to) }).toEqual({
        client: client.name,
        slis: expected,
      });
    }
  });

  it("answers only the SLIs asked for", async () => {
    const response = await (clients[0] as WireClient).observability.getServiceLevelIndicators({
      timeRange: { start: at(0), end: at(130) },
      sliNames: ["latency_p99", "availability"],
    });
    expect(response.slis.map((s) => s.name).sort()).toEqual(["availability", "latency_p99"]);
  });

  it.each([
    ["an empty range", { start: at(10), end: at(10) }],
    ["a range ending before it starts", { start: at(20), end: at(10) }],
    ["a range without an end", { start: at(0) }],
    ["no range at all", undefined],
  ])("refuses %s with invalid_argument in every protocol", async (_, timeRange) => {
    for (const client of clients) {
      expect(
        await codeOf(() => client.observability.getServiceLevelIndicators({ timeRange })),
      ).toBe("invalid_argument");
    }
  });

  it("refuses an unknown SLI name with invalid_argument and keeps serving", async () => {
    expect(
      await codeOf(() =>
        (clients[1] as WireClient).observability.getServiceLevelIndicators({
          timeRange: { start: at(0), end: at(10) },
          sliNames: ["latency_p50"],
        }),
      ),
    ).toBe("invalid_argument");
    expect((await slis(clients[1] as WireClient, 0, 10)).availability?.value).toBe(100);
  });
});

/** The grpc.health.v1 Health client of @grpc/grpc-js, loaded from the .proto file. */
interface GrpcHealthClient extends grpcJs.Client {
  Check(
    request: { service: string },
    callback: (error: grpcJs.ServiceError | null, response?: { status: string }) => void,
  ): grpcJs.ClientUnaryCall;
  Watch(request: { service: string }): grpcJs.ClientReadableStream<{ status: string }>;
}

function grpcHealthClient(server: RunningServer): GrpcHealthClient {
  const definition = protoLoader.loadSync("grpc/health/v1/health.proto", {
    includeDirs: [protoRoot],
    keepCase: true,
    enums: String,
    defaults: true,
  });
  const loaded = grpcJs.loadPackageDefinition(definition) as unknown as {
    grpc: {
      health: {
        v1: {
          Health: new (address: string, credentials: grpcJs.ChannelCredentials) => GrpcHealthClient;
        };
      };
    };
  };
  return new loaded.grpc.health.v1.Health(
    `127.0.0.1:${server.port}`,
    grpcJs.credentials.createInsecure(),
  );
}

function grpcCheck(client: GrpcHealthClient, service: string) {
  return new Promise<{ status?: string; code?: grpcJs.status }>((resolve) => {
    client.Check({ service }, (error, response) =>
      resolve(error ? { code: error.code } : { status: response?.status }),
    );
  });
}

/** A Watch stream whose messages are read one at a time. */
function watch(client: GrpcHealthClient, service: string) {
  const call = client.Watch({ service });
  call.on("error", () => {});
  const messages = on(call, "data");
  return {
    async next(): Promise<string> {
      const { value } = await messages.next();
      return (value as [{ status: string }])[0].status;
    },
    async close() {
      call.cancel();
      await messages.return?.();
    },
  };
}

describe("startServer health over the wire", () => {
  let server: RunningServer;
  let clock: FakeClock;
  let control: ObservabilityPluginControl;
  let client: WireClient;
  let grpcHealth: GrpcHealthClient;
  const logged: Array<{ obj: object; msg: string | undefined }> = [];
  const secret = "db-password-9f8e7d";

  beforeAll(async () => {
    clock = createFakeClock(startMs);
    const made = createObservabilityPlugin(clock);
    control = made.control;
    const capture = (obj: object, msg?: string) => logged.push({ obj, msg });
    const observability: Observability = createObservability({
      clock,
      defaultMetrics: false,
      logger: { error: capture, warn: capture, info: capture },
    });
    server = await startServer({
      plugin: made.plugin,
      logger: false,
      observability,
      healthWatchIntervalMs: 5,
    });
    client = wireClients(server.url)[0] as WireClient;
    grpcHealth = grpcHealthClient(server);
  });
  afterAll(async () => {
    grpcHealth.close();
    await server.close();
  });

  /** Readiness as every interface reports it right now. */
  async function everywhere() {
    const readyz = await fetch(`${server.url}/readyz`);
    const check = await client.observability.healthCheck({});
    return {
      readyz: { status: readyz.status, body: await readyz.json() },
      healthCheck: {
        status: HealthCheckResponse_Status[check.status],
        message: check.message,
        since: Number(check.lastCheckTime?.seconds ?? -1n) * 1000,
      },
      grpcCheck: (await grpcCheck(grpcHealth, "")).status,
      grpcCheckCostSource: (await grpcCheck(grpcHealth, costSourceName)).status,
    };
  }

  it("reports liveness at /healthz whatever the probe says", async () => {
    control.setHealth({ status: "not_serving", message: "down" });
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
    control.setHealth({ status: "serving" });
  });

  it("flips /readyz, HealthCheck and grpc.health Check and Watch together when the probe flips", async () => {
    const watching = watch(grpcHealth, "");
    expect(await watching.next()).toBe("SERVING");
    expect(await everywhere()).toEqual({
      readyz: { status: 200, body: { status: "serving" } },
      healthCheck: { status: "SERVING", message: "", since: expect.any(Number) },
      grpcCheck: "SERVING",
      grpcCheckCostSource: "SERVING",
    });

    clock.set(startMs + 60_000);
    control.setHealth({ status: "not_serving", message: "vendor API unreachable" });
    expect(await watching.next()).toBe("NOT_SERVING");
    expect(await everywhere()).toEqual({
      readyz: { status: 503, body: { status: "not_serving", message: "vendor API unreachable" } },
      healthCheck: {
        status: "NOT_SERVING",
        message: "vendor API unreachable",
        since: startMs + 60_000,
      },
      grpcCheck: "NOT_SERVING",
      grpcCheckCostSource: "NOT_SERVING",
    });

    // A probe that throws is not serving; its error is logged, never answered.
    clock.set(startMs + 120_000);
    control.setHealth(new Error(`connect failed: password=${secret}`));
    const failing = await everywhere();
    expect(failing).toEqual({
      readyz: { status: 503, body: { status: "not_serving", message: "health probe failed" } },
      healthCheck: {
        status: "NOT_SERVING",
        message: "health probe failed",
        since: startMs + 60_000,
      },
      grpcCheck: "NOT_SERVING",
      grpcCheckCostSource: "NOT_SERVING",
    });
    expect(JSON.stringify(failing)).not.toContain(secret);
    expect(
      logged.some((entry) => String((entry.obj as { err?: Error }).err?.message).includes(secret)),
    ).toBe(true);

    clock.set(startMs + 180_000);
    control.setHealth({ status: "serving" });
    expect(await watching.next()).toBe("SERVING");
    expect(await everywhere()).toEqual({
      readyz: { status: 200, body: { status: "serving" } },
      healthCheck: { status: "SERVING", message: "", since: startMs + 180_000 },
      grpcCheck: "SERVING",
      grpcCheckCostSource: "SERVING",
    });
    await watching.close();
  });

  it("answers grpc.health Check for an unknown service with NOT_FOUND, and Watch with SERVICE_UNKNOWN", async () => {
    expect(await grpcCheck(grpcHealth, "no.such.Service")).toEqual({
      code: grpcJs.status.NOT_FOUND,
    });
    const watching = watch(grpcHealth, "no.such.Service");
    expect(await watching.next()).toBe("SERVICE_UNKNOWN");
    await watching.close();
    const unknown = await client.observability.healthCheck({ serviceName: "no.such.Service" });
    expect(HealthCheckResponse_Status[unknown.status]).toBe("SERVICE_UNKNOWN");
    expect(await grpcCheck(grpcHealth, "")).toEqual({ status: "SERVING" });
  });

  it("ends a Watch when the caller cancels, and keeps answering new ones", async () => {
    const first = watch(grpcHealth, costSourceName);
    expect(await first.next()).toBe("SERVING");
    await first.close();
    const second = watch(grpcHealth, observabilityName);
    expect(await second.next()).toBe("SERVING");
    await second.close();
  });
});

describe("startServer metrics switch", () => {
  let server: RunningServer;
  let clock: FakeClock;

  beforeAll(async () => {
    clock = createFakeClock(startMs);
    server = await startServer({
      plugin: createObservabilityPlugin(clock).plugin,
      logger: false,
      metrics: false,
    });
  });
  afterAll(() => server.close());

  it("with metrics off serves calls unmeasured, has no /metrics route and stays ready", async () => {
    const [grpcClient, , connectClient] = wireClients(server.url) as [
      WireClient,
      WireClient,
      WireClient,
    ];
    expect(
      await codeOf(() => grpcClient.costSource.getProjectedCost({ resource: resourceOf("ok") })),
    ).toBe("ok");
    expect(
      await codeOf(() =>
        connectClient.costSource.getProjectedCost({ resource: resourceOf("boom") }),
      ),
    ).toBe("internal");
    const { metrics } = await connectClient.observability.getMetrics({});
    expect(metrics.map((m) => [m.name, m.samples.length])).toEqual([
      [rpcMetricNames.requests, 0],
      [rpcMetricNames.duration, 0],
      [rpcMetricNames.inFlight, 0],
    ]);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const now = Date.now();
    const slis = await connectClient.observability.getServiceLevelIndicators({
      timeRange: { start: timestampFromMs(now - 3_600_000), end: timestampFromMs(now + 60_000) },
    });
    expect(slis.slis.map((s) => s.status)).toEqual(Array(4).fill(SLIStatus.SLI_STATUS_UNSPECIFIED));
  });

  it("refuses a watch interval that is not a positive integer, naming the option", async () => {
    await expect(
      startServer({
        plugin: createObservabilityPlugin(clock).plugin,
        logger: false,
        healthWatchIntervalMs: 0,
      }),
    ).rejects.toThrow(/healthWatchIntervalMs/);
  });
});
