import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { gzipSync } from "node:zlib";
import { create, toBinary, toJsonString } from "@bufbuild/protobuf";
import { BinaryWriter, base64Encode, WireType } from "@bufbuild/protobuf/wire";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import {
  GetPricingSpecRequestSchema,
  GetProjectedCostRequestSchema,
  SupportsRequestSchema,
} from "@costplugin/proto";
import { createPluginRoutes, rpcMetricNames } from "@costplugin/sdk";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { RunningServer } from "../start-server.js";
import { startServer } from "../start-server.js";
import { createDifferentialPlugin } from "./testdata/differential-plugin.js";
import type { RawRequest, RawResponse } from "./testdata/raw-exchange.js";
import { exchange } from "./testdata/raw-exchange.js";

const readMaxBytes = 64 * 1024;
const projected = "/costplugin.v1.CostSourceService/GetProjectedCost";
const pricing = "/costplugin.v1.CostSourceService/GetPricingSpec";
const actual = "/costplugin.v1.CostSourceService/GetActualCost";
const supports = "/costplugin.v1.CostSourceService/Supports";
const supportsJson = '{"resource":{"provider":"aws","resourceType":"ec2"}}';
const grpcHealth = "/grpc.health.v1.Health/Check";
/** Every request names this authority, so URLs handlers see are the same on every server. */
const authority = "plugin.test";

function projectedRequest(sku: string, withResource = true): Uint8Array {
  return toBinary(
    GetProjectedCostRequestSchema,
    create(GetProjectedCostRequestSchema, {
      resource: withResource
        ? { provider: "aws", resourceType: "ec2", sku, region: "us-east-1" }
        : undefined,
    }),
  );
}

function projectedJson(sku: string): string {
  return toJsonString(
    GetProjectedCostRequestSchema,
    create(GetProjectedCostRequestSchema, {
      resource: { provider: "aws", resourceType: "ec2", sku, region: "us-east-1" },
    }),
  );
}

function pricingRequest(size: number): Uint8Array {
  return toBinary(
    GetPricingSpecRequestSchema,
    create(GetPricingSpecRequestSchema, {
      resource: { provider: "aws", resourceType: "ec2", sku: String(size), region: "us-east-1" },
    }),
  );
}

/** A valid request padded with an unknown field: large, yet a valid message. */
function paddedRequest(size: number): Uint8Array {
  const writer = new BinaryWriter();
  writer.raw(projectedRequest("t3.micro"));
  writer.tag(99, WireType.LengthDelimited).bytes(new Uint8Array(size));
  return writer.finish();
}

/** Field 1 (resource) announcing 0x7fffffff bytes that never come. */
const notAMessage = new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x07, 0x01]);

function envelope(message: Uint8Array, flags = 0, declared = message.byteLength): Uint8Array {
  const frame = new Uint8Array(5 + message.byteLength);
  frame[0] = flags;
  new DataView(frame.buffer).setUint32(1, declared);
  frame.set(message, 5);
  return frame;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  return Buffer.concat(parts);
}

const grpc = { "content-type": "application/grpc", te: "trailers" };
const grpcWeb = { "content-type": "application/grpc-web+proto", "x-grpc-web": "1" };
const proto = { "content-type": "application/proto" };
const json = { "content-type": "application/json" };

/** One request of the corpus, sent as is to every server. */
interface Case {
  readonly name: string;
  readonly request: RawRequest;
  /**
   * Why the one-port server answers differently from plain connect-node, when it does; the
   * difference is checked to be exactly that.
   */
  readonly oneportDiffers?: "invalid-message" | "not-an-rpc";
  /**
   * Answered before the body was read: the normal path abandons the request stream and Fastify
   * logs nothing, the fast path drains (HTTP/2) or closes (HTTP/1.1) and logs the call.
   */
  readonly unloggedOnNormalPath?: true;
}

function post(
  name: string,
  http: "1.1" | "2",
  path: string,
  headers: Record<string, string>,
  body: Uint8Array | string,
  extra: Partial<Case> = {},
): Case {
  return {
    name,
    request: {
      http,
      method: "POST",
      path,
      headers,
      body: typeof body === "string" ? new TextEncoder().encode(body) : body,
    },
    ...extra,
  };
}

function get(
  name: string,
  http: "1.1" | "2",
  path: string,
  headers: Record<string, string> = {},
): Case {
  return { name, request: { http, method: "GET", path, headers } };
}

const valid = projectedRequest("t3.micro");
const corpus: Case[] = [
  // Valid calls on every protocol and HTTP version.
  post("gRPC", "2", projected, grpc, envelope(valid)),
  post(
    "gRPC +proto",
    "2",
    projected,
    { ...grpc, "content-type": "application/grpc+proto" },
    envelope(valid),
  ),
  post("gRPC-web over HTTP/1.1", "1.1", projected, grpcWeb, envelope(valid)),
  post("gRPC-web over h2c", "2", projected, grpcWeb, envelope(valid)),
  post("Connect binary over HTTP/1.1", "1.1", projected, proto, valid),
  post("Connect binary over h2c", "2", projected, proto, valid),
  post("Connect JSON over HTTP/1.1", "1.1", projected, json, projectedJson("t3.micro")),
  post("Connect JSON over h2c", "2", projected, json, projectedJson("t3.micro")),
  post(
    "Connect JSON with charset",
    "1.1",
    projected,
    { "content-type": "application/json; charset=utf-8" },
    projectedJson("t3.micro"),
  ),
  get(
    "Connect GET binary",
    "1.1",
    `${projected}?encoding=proto&base64=1&message=${base64Encode(valid, "url")}`,
  ),
  get(
    "Connect GET JSON over h2c",
    "2",
    `${projected}?encoding=json&message=${encodeURIComponent(projectedJson("t3.micro"))}`,
  ),
  get(
    "Connect GET gzip",
    "1.1",
    `${projected}?encoding=proto&base64=1&compression=gzip&message=${base64Encode(gzipSync(valid), "url")}`,
  ),
  get(
    "Connect GET of Supports",
    "2",
    `${supports}?encoding=json&message=${encodeURIComponent(supportsJson)}`,
  ),
  post("gRPC health check", "2", grpcHealth, grpc, envelope(new Uint8Array(0))),
  post(
    "Supports over Connect binary",
    "2",
    supports,
    proto,
    toBinary(
      SupportsRequestSchema,
      create(SupportsRequestSchema, { resource: { provider: "aws", resourceType: "ec2" } }),
    ),
  ),
  // Handler context, response metadata and request metadata.
  post(
    "handler context over gRPC",
    "2",
    projected,
    { ...grpc, "x-echo": "hello" },
    envelope(projectedRequest("context")),
  ),
  post(
    "handler context over Connect",
    "1.1",
    projected,
    { ...proto, "x-echo": "hello", "connect-timeout-ms": "60000" },
    projectedRequest("context"),
  ),
  post(
    "handler context over gRPC-web",
    "1.1",
    projected,
    { ...grpcWeb, "x-echo": "hello", "grpc-timeout": "1M" },
    envelope(projectedRequest("context")),
  ),
  post(
    "response header and trailer over gRPC",
    "2",
    projected,
    grpc,
    envelope(projectedRequest("metadata")),
  ),
  post(
    "response header and trailer over gRPC-web",
    "1.1",
    projected,
    grpcWeb,
    envelope(projectedRequest("metadata")),
  ),
  post(
    "response header and trailer over Connect",
    "2",
    projected,
    proto,
    projectedRequest("metadata"),
  ),
  post(
    "metadata with an error over gRPC",
    "2",
    projected,
    grpc,
    envelope(projectedRequest("metadata-error")),
  ),
  post(
    "metadata with an error over Connect",
    "1.1",
    projected,
    json,
    projectedJson("metadata-error"),
  ),
  post(
    "metadata with an error over gRPC-web",
    "2",
    projected,
    grpcWeb,
    envelope(projectedRequest("metadata-error")),
  ),
  // Every error kind.
  post("unexpected failure over gRPC", "2", projected, grpc, envelope(projectedRequest("boom"))),
  post("unexpected failure over Connect", "1.1", projected, proto, projectedRequest("boom")),
  post(
    "plugin error with retry over gRPC",
    "2",
    projected,
    grpc,
    envelope(projectedRequest("limited")),
  ),
  post(
    "plugin error with retry over gRPC-web",
    "1.1",
    projected,
    grpcWeb,
    envelope(projectedRequest("limited")),
  ),
  post(
    "plugin error with retry over Connect JSON",
    "1.1",
    projected,
    json,
    projectedJson("limited"),
  ),
  post(
    "plugin error with details over Connect binary",
    "2",
    projected,
    proto,
    projectedRequest("missing"),
  ),
  post("validation failure over gRPC", "2", projected, grpc, envelope(projectedRequest("", false))),
  post("validation failure over Connect", "1.1", projected, json, "{}"),
  post("unimplemented method over gRPC", "2", actual, grpc, envelope(new Uint8Array(0))),
  post("unimplemented method over Connect", "1.1", actual, json, "{}"),
  // Deadlines.
  post(
    "gRPC deadline passing",
    "2",
    projected,
    { ...grpc, "grpc-timeout": "30m" },
    envelope(projectedRequest("wait")),
  ),
  post(
    "Connect deadline passing",
    "1.1",
    projected,
    { ...proto, "connect-timeout-ms": "30" },
    projectedRequest("wait"),
  ),
  post(
    "gRPC-web deadline passing",
    "1.1",
    projected,
    { ...grpcWeb, "grpc-timeout": "30000u" },
    envelope(projectedRequest("wait")),
  ),
  post(
    "Connect deadline of zero",
    "2",
    projected,
    { ...json, "connect-timeout-ms": "0" },
    projectedJson("context"),
  ),
  post(
    "invalid gRPC timeout",
    "2",
    projected,
    { ...grpc, "grpc-timeout": "soon" },
    envelope(valid),
  ),
  post(
    "invalid Connect timeout",
    "1.1",
    projected,
    { ...proto, "connect-timeout-ms": "12345678901" },
    valid,
  ),
  // Malformed input.
  post("gRPC body that is not a message", "2", projected, grpc, envelope(notAMessage), {
    oneportDiffers: "invalid-message",
  }),
  post("gRPC-web body that is not a message", "1.1", projected, grpcWeb, envelope(notAMessage), {
    oneportDiffers: "invalid-message",
  }),
  post("Connect binary body that is not a message", "1.1", projected, proto, notAMessage, {
    oneportDiffers: "invalid-message",
  }),
  post("Connect binary body that is not a message over h2c", "2", projected, proto, notAMessage, {
    oneportDiffers: "invalid-message",
  }),
  post("Connect JSON that does not parse", "1.1", projected, json, "{"),
  post("Connect JSON of the wrong shape", "2", projected, json, '{"resource":5}'),
  post("gRPC without a message", "2", projected, grpc, new Uint8Array(0)),
  post("gRPC with two messages", "2", projected, grpc, concat(envelope(valid), envelope(valid))),
  post("gRPC with a cut-off envelope", "2", projected, grpc, envelope(new Uint8Array(3), 0, 10)),
  post("gRPC with a cut-off prefix", "2", projected, grpc, new Uint8Array([0, 0, 0])),
  post(
    "gRPC-web with a trailer frame before the message",
    "1.1",
    projected,
    grpcWeb,
    concat(envelope(new Uint8Array(0), 0x80), envelope(valid)),
  ),
  post("gRPC compressed flag without an encoding", "2", projected, grpc, envelope(valid, 1), {
    oneportDiffers: "invalid-message",
  }),
  // Size limits.
  post("gRPC message over readMaxBytes", "2", projected, grpc, envelope(paddedRequest(100_000)), {
    unloggedOnNormalPath: true,
  }),
  post(
    "gRPC-web message over readMaxBytes",
    "1.1",
    projected,
    grpcWeb,
    envelope(paddedRequest(100_000)),
    { unloggedOnNormalPath: true },
  ),
  post("Connect body over readMaxBytes", "2", projected, proto, paddedRequest(100_000), {
    unloggedOnNormalPath: true,
  }),
  post("Connect body just under readMaxBytes", "1.1", projected, proto, paddedRequest(60_000)),
  post(
    "gRPC prefix declaring more than readMaxBytes",
    "2",
    projected,
    grpc,
    envelope(valid, 0, 0x7fffffff),
  ),
  // Compression.
  post(
    "gzip Connect request",
    "1.1",
    projected,
    { ...proto, "content-encoding": "gzip" },
    gzipSync(valid),
  ),
  post(
    "gzip Connect JSON request over h2c",
    "2",
    projected,
    { ...json, "content-encoding": "gzip" },
    gzipSync(projectedJson("t3.micro")),
  ),
  post(
    "gzip gRPC request",
    "2",
    projected,
    { ...grpc, "grpc-encoding": "gzip" },
    envelope(gzipSync(valid), 1),
  ),
  post(
    "gzip gRPC-web request",
    "1.1",
    projected,
    { ...grpcWeb, "grpc-encoding": "gzip" },
    envelope(gzipSync(valid), 1),
  ),
  post(
    "gzip request over readMaxBytes once inflated",
    "2",
    projected,
    { ...proto, "content-encoding": "gzip" },
    gzipSync(paddedRequest(200_000)),
  ),
  post(
    "gzip gRPC request over readMaxBytes once inflated",
    "2",
    projected,
    { ...grpc, "grpc-encoding": "gzip" },
    envelope(gzipSync(paddedRequest(200_000)), 1),
  ),
  post(
    "corrupt gzip",
    "1.1",
    projected,
    { ...proto, "content-encoding": "gzip" },
    new Uint8Array([0x1f, 0x8b, 1, 2, 3, 4]),
  ),
  post(
    "unknown Connect encoding",
    "1.1",
    projected,
    { ...proto, "content-encoding": "snappy" },
    valid,
  ),
  post(
    "unknown gRPC encoding",
    "2",
    projected,
    { ...grpc, "grpc-encoding": "snappy" },
    envelope(valid),
  ),
  post(
    "gzip Connect response",
    "1.1",
    pricing,
    { ...proto, "accept-encoding": "gzip" },
    pricingRequest(20_000),
  ),
  post(
    "br Connect response over h2c",
    "2",
    pricing,
    { ...proto, "accept-encoding": "br, gzip" },
    pricingRequest(20_000),
  ),
  post(
    "gzip gRPC response",
    "2",
    pricing,
    { ...grpc, "grpc-accept-encoding": "gzip" },
    envelope(pricingRequest(20_000)),
  ),
  post(
    "gzip gRPC-web response",
    "1.1",
    pricing,
    { ...grpcWeb, "grpc-accept-encoding": "gzip" },
    envelope(pricingRequest(20_000)),
  ),
  post(
    "small response not compressed",
    "2",
    projected,
    { ...grpc, "grpc-accept-encoding": "identity,deflate,gzip" },
    envelope(valid),
  ),
  // CORS and tracing headers.
  post(
    "allowed origin",
    "1.1",
    projected,
    { ...json, origin: "http://localhost:5173" },
    projectedJson("t3.micro"),
  ),
  post(
    "foreign origin",
    "1.1",
    projected,
    { ...grpcWeb, origin: "https://elsewhere.example" },
    envelope(valid),
  ),
  post(
    "traceparent",
    "2",
    projected,
    { ...proto, traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" },
    valid,
  ),
  // Not for the fast path: answered by the normal path on both one-port servers.
  post("unknown method", "2", "/costplugin.v1.CostSourceService/Nope", grpc, envelope(valid), {
    oneportDiffers: "not-an-rpc",
  }),
  post(
    "gRPC JSON",
    "2",
    projected,
    { ...grpc, "content-type": "application/grpc+json" },
    envelope(new TextEncoder().encode(projectedJson("t3.micro"))),
  ),
  post("unknown content type", "1.1", projected, { "content-type": "text/plain" }, "hello", {
    oneportDiffers: "not-an-rpc",
  }),
  {
    ...get(
      "GET of a method with side effects",
      "1.1",
      "/grpc.health.v1.Health/Check?encoding=json&message=%7B%7D",
    ),
    oneportDiffers: "not-an-rpc",
  },
  post(
    "Connect streaming content type",
    "2",
    projected,
    { "content-type": "application/connect+proto" },
    envelope(valid),
    { oneportDiffers: "not-an-rpc" },
  ),
];

/** Log lines of one server, collected in memory. */
function logCollector(): { stream: Writable; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return {
    stream,
    lines: () =>
      chunks
        .join("")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

let fast: RunningServer;
let slow: RunningServer;
const fastLogs = logCollector();
const slowLogs = logCollector();
let connectNode: { h2: http2.Http2Server; h1: http.Server; h2Url: string; h1Url: string };
const results = new Map<
  string,
  { fast: RawResponse; slow: RawResponse; connectNode: RawResponse }
>();

beforeAll(async () => {
  // ErrorDetail timestamps come from the clock: frozen, every server writes the same bytes.
  vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-03-04T05:06:07.089Z") });
  const common = { readMaxBytes, logger: { level: "info" } } as const;
  fast = await startServer({
    ...common,
    plugin: createDifferentialPlugin(),
    logStream: fastLogs.stream,
  });
  slow = await startServer({
    ...common,
    plugin: createDifferentialPlugin(),
    logStream: slowLogs.stream,
    fastPath: false,
  });
  const routes = createPluginRoutes(createDifferentialPlugin(), {
    logger: { error() {}, warn() {}, info() {} },
  });
  const handler = connectNodeAdapter({
    routes,
    interceptors: [routes.observability.interceptor],
    readMaxBytes,
  });
  const h2 = http2.createServer(handler);
  const h1 = http.createServer(handler);
  await Promise.all(
    [h2, h1].map((s) => new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve))),
  );
  connectNode = {
    h2,
    h1,
    h2Url: `http://127.0.0.1:${(h2.address() as AddressInfo).port}`,
    h1Url: `http://127.0.0.1:${(h1.address() as AddressInfo).port}`,
  };
  for (const [index, entry] of corpus.entries()) {
    const request: RawRequest = {
      ...entry.request,
      headers: {
        ...entry.request.headers,
        "x-request-id": `differential-${index}`,
        ...(entry.request.http === "2" ? { ":authority": authority } : { host: authority }),
      },
    };
    if (process.env.DIFF_DEBUG) console.log("case", index, entry.name);
    results.set(entry.name, {
      fast: await exchange(fast.url, request),
      slow: await exchange(slow.url, request),
      connectNode: await exchange(
        request.http === "2" ? connectNode.h2Url : connectNode.h1Url,
        request,
      ),
    });
  }
});

afterAll(async () => {
  vi.useRealTimers();
  await Promise.all([fast?.close(), slow?.close()]);
  connectNode?.h2.close();
  connectNode?.h1.close();
});

/** Headers that differ between any two responses by nature (time, connection reuse). */
const volatile = new Set(["date", "keep-alive"]);
/** Headers only the one-port server sends (request id, tracing echo, CORS). */
const oneportOnly = new Set([
  "x-request-id",
  "traceparent",
  "vary",
  "access-control-allow-origin",
  "access-control-expose-headers",
]);

function comparable(response: RawResponse, drop: ReadonlySet<string> = new Set()) {
  const keep = (headers: Record<string, string | string[]>) =>
    Object.fromEntries(
      Object.entries(headers)
        .filter(([name]) => !volatile.has(name) && !drop.has(name))
        .sort(([a], [b]) => a.localeCompare(b)),
    );
  return {
    status: response.status,
    headers: keep(response.headers),
    body: response.body.toString("base64"),
    trailers: keep(response.trailers),
  };
}

function outcome(name: string) {
  const result = results.get(name);
  if (result === undefined) throw new Error(`no result for ${name}`);
  return result;
}

describe("fast path", () => {
  describe.each(corpus.map((entry) => [entry.name, entry] as const))("%s", (name, entry) => {
    it("answers byte for byte like the server without the fast path", () => {
      const { fast: f, slow: s } = outcome(name);
      expect(comparable(f)).toEqual(comparable(s));
    });

    if (entry.oneportDiffers === undefined) {
      it("answers byte for byte like plain connect-node, beside the one-port headers", () => {
        const { fast: f, connectNode: c } = outcome(name);
        expect(comparable(f, oneportOnly)).toEqual(comparable(c, oneportOnly));
      });
    }
    if (entry.oneportDiffers === "invalid-message") {
      it("answers invalid_argument where plain connect-node blames itself with internal", () => {
        const { fast: f, connectNode: c } = outcome(name);
        const code = (r: RawResponse) =>
          r.headers["content-type"]?.includes("application/json")
            ? (JSON.parse(r.body.toString()) as { code: string }).code
            : String(r.trailers["grpc-status"] ?? grpcWebStatus(r.body));
        expect([code(f), code(c)]).toSatisfy(
          ([mine, theirs]: string[]) =>
            (mine === "invalid_argument" && theirs === "internal") ||
            (mine === "3" && theirs === "13"),
        );
      });
    }
  });

  it("writes the same log line for every request as the server without the fast path", () => {
    const strip = (line: Record<string, unknown>) => {
      const { time, pid, hostname, durationMs, ...rest } = line;
      return rest;
    };
    const unlogged = new Set(
      corpus.flatMap((entry, index) =>
        entry.unloggedOnNormalPath ? [`differential-${index}`] : [],
      ),
    );
    const requestLines = (lines: Array<Record<string, unknown>>) =>
      lines
        .filter((line) => String(line.requestId ?? "").startsWith("differential-"))
        .filter((line) => !unlogged.has(String(line.requestId)))
        .map(strip)
        .sort((a, b) => String(a.requestId).localeCompare(String(b.requestId)));
    expect(requestLines(fastLogs.lines())).toEqual(requestLines(slowLogs.lines()));
  });

  it("logs calls answered before their body was read as resource_exhausted", async () => {
    const ids = corpus.flatMap((entry, index) =>
      entry.unloggedOnNormalPath ? [`differential-${index}`] : [],
    );
    // Logged when the exchange is over; the client may have hung up a moment ago.
    const codes = () =>
      fastLogs
        .lines()
        .filter((line) => ids.includes(String(line.requestId)))
        .map((line) => line.code);
    await expect.poll(codes).toEqual(ids.map(() => "resource_exhausted"));
  });

  it("counts every call in the same metrics as the server without the fast path", async () => {
    const counters = async (server: RunningServer) => {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      return text
        .split("\n")
        .filter((line) => line.startsWith(`${rpcMetricNames.requests}{`))
        .sort();
    };
    const mine = await counters(fast);
    expect(mine.length).toBeGreaterThan(10);
    expect(mine).toEqual(await counters(slow));
  });
});

/** The grpc-status of a gRPC-web body's trailer frame. */
function grpcWebStatus(body: Buffer): string {
  let offset = 0;
  while (offset + 5 <= body.byteLength) {
    const flags = body[offset] as number;
    const length = body.readUInt32BE(offset + 1);
    const data = body.subarray(offset + 5, offset + 5 + length);
    if (flags === 0x80) return /grpc-status: (\d+)/.exec(data.toString())?.[1] ?? "";
    offset += 5 + length;
  }
  return "";
}
