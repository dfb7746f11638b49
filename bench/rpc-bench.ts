import { createClient, type Transport } from "@connectrpc/connect";
import {
  createConnectTransport,
  createGrpcTransport,
  createGrpcWebTransport,
} from "@connectrpc/connect-node";
import { CostSourceService } from "@costplugin/proto";
import { type BenchProtocol, benchBodies, benchPath, benchRequest } from "./fixture.js";
import { type LoadResult, runLoad } from "./h2load.js";
import { type SpawnedServer, spawnServer } from "./spawn-server.js";

/** A server measured side by side with the others. */
type Target = "one-port" | "one-port-connect" | "connect-node" | "grpc-js" | "fastify-json";

const scripts: Record<Target, { script: string; ports: string[]; args?: string[] }> = {
  "one-port": { script: "serve-one-port", ports: ["PORT"] },
  // The same server with `fastPath: false`: every request through connect-fastify.
  "one-port-connect": { script: "serve-one-port", ports: ["PORT"], args: ["--no-fast-path"] },
  "connect-node": { script: "serve-connect-node", ports: ["PORT", "PORT_HTTP1"] },
  "grpc-js": { script: "serve-grpc-js", ports: ["PORT"] },
  "fastify-json": { script: "serve-fastify-json", ports: ["PORT"] },
};

interface Row {
  protocol: BenchProtocol;
  http1: boolean;
  targets: Target[];
  /** The peer (and its protocol) the ratio column compares with. */
  reference: { protocol: BenchProtocol; target: Target };
}

const rows: Row[] = [
  // Targets: gRPC at least grpc-js; Connect binary at least grpc-js's gRPC; Connect JSON and
  // gRPC-web over HTTP/1.1 at least half a plain Fastify JSON route doing the same work.
  {
    protocol: "grpc",
    http1: false,
    targets: ["grpc-js", "connect-node", "one-port-connect", "one-port"],
    reference: { protocol: "grpc", target: "grpc-js" },
  },
  {
    protocol: "connect-binary",
    http1: false,
    targets: ["connect-node", "one-port-connect", "one-port"],
    reference: { protocol: "grpc", target: "grpc-js" },
  },
  {
    protocol: "connect-json",
    http1: true,
    targets: ["fastify-json", "connect-node", "one-port-connect", "one-port"],
    reference: { protocol: "connect-json", target: "fastify-json" },
  },
  {
    protocol: "grpc-web",
    http1: true,
    targets: ["connect-node", "one-port-connect", "one-port"],
    reference: { protocol: "connect-json", target: "fastify-json" },
  },
];

/** Options of `runRpcBench`. */
export interface RpcBenchOptions {
  readonly seconds: number;
  readonly warmupSeconds: number;
  /** Every cell is measured this many times; the table shows the run with the median req/s. */
  readonly rounds: number;
  readonly serverCpu: number;
  readonly loadCpu: number;
}

/** Sends one real request to check the peer answers the protocol correctly before loading it. */
async function sanityCheck(
  protocol: BenchProtocol,
  baseUrl: string,
  http1: boolean,
): Promise<void> {
  const httpVersion = http1 ? "1.1" : "2";
  let transport: Transport;
  if (protocol === "grpc") transport = createGrpcTransport({ baseUrl });
  else if (protocol === "grpc-web") transport = createGrpcWebTransport({ baseUrl, httpVersion });
  else
    transport = createConnectTransport({
      baseUrl,
      httpVersion,
      useBinaryFormat: protocol === "connect-binary",
    });
  const res = await createClient(CostSourceService, transport).getProjectedCost(benchRequest);
  if (!(res.costPerMonth > 0)) throw new Error(`${baseUrl} answered ${protocol} without a cost`);
}

async function sanityCheckJsonRoute(baseUrl: string): Promise<void> {
  const res = await fetch(baseUrl + benchPath, {
    method: "POST",
    headers: benchBodies["connect-json"].headers,
    body: benchBodies["connect-json"].body,
  });
  const json = (await res.json()) as { costPerMonth?: number };
  if (!res.ok || !(Number(json.costPerMonth) > 0))
    throw new Error("plain Fastify route answered badly");
}

/** One measured cell of the table. */
export interface Cell extends LoadResult {
  readonly protocol: BenchProtocol;
  readonly target: Target;
  readonly concurrency: string;
  readonly reference: { protocol: BenchProtocol; target: Target };
  /** req/s of every round, in the order measured. */
  readonly rounds: readonly number[];
  /**
   * Server CPU time per request in microseconds (median over the rounds): what the server
   * spent per call whatever else ran on the machine; the inverse of its throughput when it
   * alone limits the rate.
   */
  readonly cpuUsPerRequest: number;
}

function levelsOf(row: Row) {
  return row.http1
    ? [
        { connections: 1, streams: 1, label: "1 conn" },
        { connections: 64, streams: 1, label: "64 conns" },
      ]
    : [
        { connections: 1, streams: 1, label: "1 stream" },
        { connections: 4, streams: 16, label: "4 conns x 16 streams" },
        { connections: 1, streams: 64, label: "1 conn x 64 streams" },
      ];
}

/**
 * Runs every protocol against every peer at each concurrency level. All peers are started first
 * (each alone on the server CPU, idle while another is loaded); then each cell's peers are
 * loaded one right after the other, round after round in a rotating order, so that peers
 * compared in a ratio are measured seconds apart under the same background load.
 */
export async function runRpcBench(o: RpcBenchOptions, log: (s: string) => void): Promise<Cell[]> {
  const targets = [...new Set(rows.flatMap((r) => r.targets))];
  const servers = new Map<Target, SpawnedServer>();
  try {
    for (const target of targets) {
      const { script, ports, args } = scripts[target];
      servers.set(target, await spawnServer(script, o.serverCpu, ports, args));
    }
    const urlOf = (target: Target, row: Row) => {
      const ports = (servers.get(target) as SpawnedServer).ports;
      const port = row.http1 && ports.PORT_HTTP1 ? ports.PORT_HTTP1 : ports.PORT;
      return `http://127.0.0.1:${port}`;
    };
    for (const row of rows) {
      for (const target of row.targets) {
        if (target === "fastify-json") await sanityCheckJsonRoute(urlOf(target, row));
        else await sanityCheck(row.protocol, urlOf(target, row), row.http1);
      }
    }
    const measured = new Map<string, Array<LoadResult & { cpuUs: number }>>();
    for (let round = 0; round < o.rounds; round++) {
      for (const row of rows) {
        for (const level of levelsOf(row)) {
          const order = row.targets.map(
            (_, i) => row.targets[(i + round) % row.targets.length] as Target,
          );
          for (const target of order) {
            log(`round ${round + 1}/${o.rounds} ${target} ${row.protocol} ${level.label} ...`);
            const server = servers.get(target) as SpawnedServer;
            const cpuBefore = server.cpuMs();
            const loaded = await runLoad({
              url: urlOf(target, row) + benchPath,
              body: benchBodies[row.protocol].body,
              headers: benchBodies[row.protocol].headers,
              http1: row.http1,
              connections: level.connections,
              streams: level.streams,
              seconds: o.seconds,
              warmupSeconds: o.warmupSeconds,
              cpu: o.loadCpu,
            });
            // Warm-up requests are not counted by h2load; estimate them at the measured rate.
            const requests = loaded.requestsPerSecond * (o.seconds + o.warmupSeconds);
            const result = { ...loaded, cpuUs: ((server.cpuMs() - cpuBefore) * 1000) / requests };
            log(
              `  ${result.requestsPerSecond.toFixed(0)} req/s p50 ${result.p50Ms.toFixed(2)} ms p99 ${result.p99Ms.toFixed(2)} ms, ${result.cpuUs.toFixed(0)} us CPU/req`,
            );
            const key = `${row.protocol}|${level.label}|${target}`;
            measured.set(key, [...(measured.get(key) ?? []), result]);
          }
        }
      }
    }
    const cells: Cell[] = [];
    for (const row of rows) {
      for (const level of levelsOf(row)) {
        for (const target of row.targets) {
          const results = measured.get(`${row.protocol}|${level.label}|${target}`) ?? [];
          const sorted = [...results].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
          const median = sorted[Math.floor((sorted.length - 1) / 2)] as LoadResult;
          const cpu = results.map((r) => r.cpuUs).sort((a, b) => a - b);
          cells.push({
            ...median,
            protocol: row.protocol,
            target,
            concurrency: level.label,
            reference: row.reference,
            rounds: results.map((r) => r.requestsPerSecond),
            cpuUsPerRequest: cpu[Math.floor((cpu.length - 1) / 2)] ?? Number.NaN,
          });
        }
      }
    }
    return cells;
  } finally {
    await Promise.all([...servers.values()].map((server) => server.stop()));
  }
}

/** The markdown table: one line per protocol, peer and concurrency, with the ratio to the reference. */
export function rpcBenchMarkdown(cells: Cell[]): string {
  const lines = [
    "| protocol | concurrency | server | req/s | p50 ms | p99 ms | failed | ratio to reference | req/s of each round | server CPU µs/req | CPU ratio to reference |",
    "|---|---|---|---:|---:|---:|---:|---|---|---:|---|",
  ];
  for (const c of cells) {
    const ref = cells.find(
      (r) =>
        r.protocol === c.reference.protocol &&
        r.target === c.reference.target &&
        r.concurrency === c.concurrency,
    );
    const ratio =
      ref === undefined
        ? "n/a"
        : ref === c
          ? "reference"
          : `${(c.requestsPerSecond / ref.requestsPerSecond).toFixed(2)}x ${c.reference.target} ${c.reference.protocol}`;
    // Higher is better, as for req/s: the reference's CPU per request over this peer's.
    const cpuRatio =
      ref === undefined
        ? "n/a"
        : ref === c
          ? "reference"
          : `${(ref.cpuUsPerRequest / c.cpuUsPerRequest).toFixed(2)}x`;
    lines.push(
      `| ${c.protocol} | ${c.concurrency} | ${c.target} | ${c.requestsPerSecond.toFixed(0)} | ${c.p50Ms.toFixed(2)} | ${c.p99Ms.toFixed(2)} | ${c.failed} | ${ratio} | ${c.rounds.map((r) => r.toFixed(0)).join(", ")} | ${c.cpuUsPerRequest.toFixed(0)} | ${cpuRatio} |`,
    );
  }
  return lines.join("\n");
}
