// What metrics, request logs and tracing cost: the one-port server with each of them switched on
// in turn, loaded side by side with Connect JSON over HTTP/1.1 and gRPC over h2c.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { CostSourceService } from "@costplugin/proto";
import { type BenchProtocol, benchBodies, benchPath, benchRequest } from "./fixture.js";
import { h2loadArgs, type LoadResult, runLoad } from "./h2load.js";
import { type SpawnedServer, spawnServer } from "./spawn-server.js";

/** Options of `runObservabilityBench`. */
export interface ObservabilityBenchOptions {
  /** Measured seconds per cell. */
  readonly seconds: number;
  /** Warm-up seconds per cell, not measured. */
  readonly warmupSeconds: number;
  /** Every cell is measured this many times; the table shows the round with the median req/s. */
  readonly rounds: number;
  /** CPU the servers are pinned to. */
  readonly serverCpu: number;
  /** CPU the load generator is pinned to. */
  readonly loadCpu: number;
  /** Progress lines (stderr by default). */
  readonly log?: (line: string) => void;
}

/** The feature combinations compared, cheapest first; the first is the reference. */
const configurations = [
  { name: "all off", metrics: false, logs: false, tracing: false },
  { name: "metrics", metrics: true, logs: false, tracing: false },
  { name: "metrics + logs", metrics: true, logs: true, tracing: false },
  { name: "metrics + logs + tracing", metrics: true, logs: true, tracing: true },
] as const;

type ConfigurationName = (typeof configurations)[number]["name"];

/** The loads: each protocol at a concurrency that saturates the server's one CPU. */
const rows: ReadonlyArray<{
  protocol: BenchProtocol;
  label: string;
  http1: boolean;
  connections: number;
  streams: number;
}> = [
  {
    protocol: "connect-json",
    label: "Connect JSON, HTTP/1.1, 64 connections",
    http1: true,
    connections: 64,
    streams: 1,
  },
  {
    protocol: "grpc",
    label: "gRPC, h2c, 4 connections x 16 streams",
    http1: false,
    connections: 4,
    streams: 16,
  },
];

/** A stand-in OTLP/HTTP collector on 127.0.0.1 that accepts and counts trace exports. */
interface OtlpSink {
  readonly url: string;
  readonly exports: number;
  readonly bytes: number;
  close(): Promise<void>;
}

async function startOtlpSink(): Promise<OtlpSink> {
  let exports = 0;
  let bytes = 0;
  const server: Server = createServer((request, response) => {
    request.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
    });
    request.on("end", () => {
      if (request.method === "POST" && request.url === "/v1/traces") exports++;
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    get exports() {
      return exports;
    },
    get bytes() {
      return bytes;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One real Connect JSON call over HTTP/1.1 and one gRPC call, so a broken peer is never loaded. */
async function sanityCheck(baseUrl: string): Promise<void> {
  for (const transport of [
    createConnectTransport({ baseUrl, httpVersion: "1.1" }),
    createGrpcTransport({ baseUrl }),
  ]) {
    const res = await createClient(CostSourceService, transport).getProjectedCost(benchRequest);
    if (!(res.costPerMonth > 0)) throw new Error(`${baseUrl} answered without a cost`);
  }
}

/** `/metrics` must be served exactly when metrics are on, and count the sanity calls. */
async function checkMetricsRoute(baseUrl: string, metricsOn: boolean): Promise<void> {
  const response = await fetch(`${baseUrl}/metrics`);
  const text = await response.text();
  if (metricsOn !== (response.status === 200)) {
    throw new Error(`${baseUrl}/metrics answered ${response.status} with metrics ${metricsOn}`);
  }
  if (
    metricsOn &&
    !text.includes('costplugin_rpc_requests_total{service="costplugin.v1.CostSourceService"')
  ) {
    throw new Error(`${baseUrl}/metrics does not count the sanity calls`);
  }
}

/** Waits (up to 2 s: log writes are asynchronous) until `file` holds an RPC log line. */
async function waitForLogLine(file: string, name: string): Promise<void> {
  for (let attempt = 0; attempt < 40; attempt++) {
    if (readFileSync(file, "utf8").includes('"msg":"rpc completed"')) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${name}: no RPC log line in ${file}`);
}

function countLines(file: string): number {
  let lines = 0;
  const bytes = readFileSync(file);
  for (const byte of bytes) if (byte === 0x0a) lines++;
  return lines;
}

/** One load of one server: what h2load saw, and the server's CPU time per request. */
interface Measurement extends LoadResult {
  readonly cpuUs: number;
}

interface Cell extends LoadResult {
  readonly rounds: readonly number[];
  /** Median over the rounds of the server's CPU time per request, in microseconds. */
  readonly cpuUs: number;
}

/**
 * For every load and round, starts each configuration in turn as a fresh server alone on
 * `serverCpu`, checks it with real clients, loads it with h2load pinned to `loadCpu` and stops
 * it, in an order that rotates from round to round; reports each configuration's throughput, CPU
 * per request and latency beside the all-off reference.
 */
export async function runObservabilityBench(
  options: ObservabilityBenchOptions,
): Promise<{ title: string; markdown: string }> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  // The servers run compiled JavaScript, as in production: build them and what they import.
  log("building bench/ and the packages it uses (tsc -b bench)");
  const tsc = fileURLToPath(new URL("../node_modules/.bin/tsc", import.meta.url));
  execFileSync(tsc, ["-b", fileURLToPath(new URL(".", import.meta.url))], { stdio: "inherit" });

  const sink = await startOtlpSink();
  const logDir = mkdtempSync(join(tmpdir(), "costplugin-obs-bench-"));
  const servers = new Map<ConfigurationName, SpawnedServer>();
  const logFiles = new Map<ConfigurationName, string>();
  const argsOf = (c: (typeof configurations)[number]) => {
    const logFile = join(logDir, `${c.name.replace(/\W+/g, "-")}.log`);
    if (c.logs) logFiles.set(c.name, logFile);
    return [
      `--metrics=${c.metrics ? "on" : "off"}`,
      `--logs=${c.logs ? logFile : "off"}`,
      `--tracing=${c.tracing ? sink.url : "off"}`,
    ];
  };
  const commands = new Map<ConfigurationName, string[]>();
  const measured = new Map<string, Measurement[]>();
  for (const c of configurations) commands.set(c.name, argsOf(c));
  /** Starts a fresh server of configuration `c` and checks it with real clients. */
  const start = async (c: (typeof configurations)[number]): Promise<SpawnedServer> => {
    const server = await spawnServer(
      "serve-one-port-observability",
      options.serverCpu,
      ["PORT"],
      commands.get(c.name) ?? [],
    );
    servers.set(c.name, server);
    const url = `http://127.0.0.1:${server.ports.PORT}`;
    await sanityCheck(url);
    await checkMetricsRoute(url, c.metrics);
    const logFile = logFiles.get(c.name);
    if (logFile !== undefined) await waitForLogLine(logFile, c.name);
    return server;
  };
  // Closing flushes the tracer, so the sink has seen every export once this returns.
  const stopAll = async () => {
    await Promise.all([...servers.values()].map((server) => server.stop()));
    servers.clear();
  };
  try {
    for (let round = 0; round < options.rounds; round++) {
      for (const row of rows) {
        const order = configurations.map(
          (_, i) =>
            configurations[(i + round) % configurations.length] as (typeof configurations)[number],
        );
        for (const c of order) {
          log(`round ${round + 1}/${options.rounds} ${row.protocol} ${c.name} ...`);
          // A fresh process for every cell, alone on its CPU: two processes of one build differ
          // by several per cent in CPU per request (JIT, memory layout), and idle neighbours on
          // the same CPU skew it further; both would otherwise stick to one column.
          const server = await start(c);
          const url = `http://127.0.0.1:${server.ports.PORT}`;
          // CPU time is read when h2load's warm-up ends and after its last request, and divided
          // by the requests it counted in between (it does not count warm-up requests).
          let cpuAfterWarmup = server.cpuMs();
          const warmedUp = setTimeout(() => {
            cpuAfterWarmup = server.cpuMs();
          }, options.warmupSeconds * 1000);
          const loaded = await runLoad({
            url: url + benchPath,
            body: benchBodies[row.protocol].body,
            headers: benchBodies[row.protocol].headers,
            http1: row.http1,
            connections: row.connections,
            streams: row.streams,
            seconds: options.seconds,
            warmupSeconds: options.warmupSeconds,
            cpu: options.loadCpu,
          });
          clearTimeout(warmedUp);
          const result = {
            ...loaded,
            cpuUs: ((server.cpuMs() - cpuAfterWarmup) * 1000) / loaded.succeeded,
          };
          log(
            `  ${result.requestsPerSecond.toFixed(0)} req/s p50 ${result.p50Ms.toFixed(2)} ms p99 ${result.p99Ms.toFixed(2)} ms, ${result.cpuUs.toFixed(1)} us CPU/req`,
          );
          const key = `${row.protocol}|${c.name}`;
          measured.set(key, [...(measured.get(key) ?? []), result]);
          await stopAll();
        }
      }
    }
  } finally {
    await stopAll();
  }
  const logLines = new Map(
    [...logFiles].map(([name, file]) => [
      name,
      { lines: countLines(file), bytes: statSync(file).size },
    ]),
  );
  const otlp = { exports: sink.exports, bytes: sink.bytes };
  await sink.close();
  rmSync(logDir, { recursive: true, force: true });

  const cellOf = (protocol: BenchProtocol, name: ConfigurationName): Cell => {
    const results = measured.get(`${protocol}|${name}`) ?? [];
    const sorted = [...results].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
    const median = sorted[Math.floor((sorted.length - 1) / 2)] as LoadResult;
    const cpu = results.map((r) => r.cpuUs).sort((a, b) => a - b);
    return {
      ...median,
      rounds: results.map((r) => r.requestsPerSecond),
      cpuUs: cpu[Math.floor((cpu.length - 1) / 2)] ?? Number.NaN,
    };
  };

  /** Median over the rounds of `f(cell of this round, all-off cell of the same round)`. */
  const pairedMedian = (
    protocol: BenchProtocol,
    name: ConfigurationName,
    f: (cell: Measurement, reference: Measurement) => number,
  ): number => {
    const cells = measured.get(`${protocol}|${name}`) ?? [];
    const references = measured.get(`${protocol}|all off`) ?? [];
    const values = cells
      .map((cell, round) => f(cell, references[round] as Measurement))
      .sort((x, y) => x - y);
    return values[Math.floor((values.length - 1) / 2)] ?? Number.NaN;
  };

  const table = [
    "| load | configuration | req/s | throughput cost vs all off | server CPU µs/req | CPU cost vs all off | p50 ms | p99 ms | failed | req/s of each round |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
  ];
  for (const row of rows) {
    for (const c of configurations) {
      const cell = cellOf(row.protocol, c.name);
      const isReference = c.name === "all off";
      const cost = isReference
        ? "reference"
        : `${(pairedMedian(row.protocol, c.name, (x, ref) => 1 - x.requestsPerSecond / ref.requestsPerSecond) * 100).toFixed(1)} %`;
      const cpuCost = isReference
        ? "reference"
        : `${(pairedMedian(row.protocol, c.name, (x, ref) => x.cpuUs / ref.cpuUs - 1) * 100).toFixed(1)} %`;
      table.push(
        `| ${row.label} | ${c.name} | ${cell.requestsPerSecond.toFixed(0)} | ${cost} | ${cell.cpuUs.toFixed(1)} | ${cpuCost} | ${cell.p50Ms.toFixed(2)} | ${cell.p99Ms.toFixed(2)} | ${cell.failed} | ${cell.rounds.map((r) => r.toFixed(0)).join(", ")} |`,
      );
    }
  }

  const example = h2loadArgs(
    {
      url: `http://127.0.0.1:<port>${benchPath}`,
      body: new Uint8Array(),
      headers: benchBodies["connect-json"].headers,
      http1: true,
      connections: 64,
      streams: 1,
      seconds: options.seconds,
      warmupSeconds: options.warmupSeconds,
      cpu: options.loadCpu,
    },
    "<request.json>",
    "<requests.log>",
  );
  const logged = [...logLines]
    .map(
      ([name, { lines, bytes }]) =>
        `${name}: ${lines} lines, ${(bytes / lines).toFixed(0)} bytes each`,
    )
    .join("; ");
  const markdown = [
    `The one-port server (\`startServer()\` as shipped, fast path on, the reference plugin \`plugin-list-price\`) in four configurations, each cell a fresh process alone on CPU ${options.serverCpu} (started, checked, loaded, stopped), with different switches (\`bench/dist/servers/serve-one-port-observability.js\`): **all off** \`${(commands.get("all off") ?? []).join(" ")}\` (\`metrics: false\`, \`logger: false\`, no tracer); **metrics** adds the RPC metrics interceptor, process metrics and \`/metrics\`; **+ logs** adds the pino request log at level info, one JSON line per RPC, written to a file through the same stream the server writes stderr with by default (\`createLogDestination\`: lines batched into one synchronous 4 KiB write, at most 100 ms late); **+ tracing** adds an OpenTelemetry span per RPC, batched and exported over OTLP/HTTP to a stand-in collector on 127.0.0.1 that answers every export at once.`,
    "",
    `h2load runs pinned to CPU ${options.loadCpu}, ${options.warmupSeconds} s warm-up then ${options.seconds} s measured per cell; the four configurations of a load are measured one right after the other, ${options.rounds} rounds in rotating order, and the table shows the round with the median req/s (every round in the last column), the median server CPU time per request (user + system time of the server process from the end of the warm-up to the last request, over the requests h2load counted in that time; it depends much less than req/s on what else runs on the machine), and each cost as the median over the rounds of the cost measured against the all-off server in the same round (cells seconds apart, so slow changes in the machine's load cancel out). Each server is first checked with real Connect and gRPC clients; \`/metrics\` must answer exactly when metrics are on; the log files must hold RPC lines. Example load: \`taskset -c ${options.loadCpu} h2load ${example.join(" ")}\`.`,
    "",
    table.join("\n"),
    "",
    `Written during the run: ${logged}. OTLP exports received by the stand-in collector: ${otlp.exports} (${(otlp.bytes / 2 ** 20).toFixed(1)} MiB).`,
  ].join("\n");
  return { title: "Observability cost: metrics, request logs and tracing on vs off", markdown };
}
