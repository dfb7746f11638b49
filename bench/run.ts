// `pnpm bench`: measures the one-port server against its peers side by side in one run and
// writes BENCHMARKS.md. Not part of the tests.
import { execFileSync } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { h2loadArgs } from "./h2load.js";
import { runObservabilityBench } from "./observability-bench.js";
import { rpcBenchMarkdown, runRpcBench } from "./rpc-bench.js";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "3" },
    warmup: { type: "string", default: "1" },
    rounds: { type: "string", default: "3" },
    only: { type: "string" },
    output: { type: "string", default: "BENCHMARKS.md" },
  },
});

const log = (s: string) => process.stderr.write(`${s}\n`);
const sections: Array<{ title: string; markdown: string }> = [];
const started = new Date();
const loadAtStart = loadavg()[0] ?? 0;

if (values.only === undefined || values.only === "rpc") {
  const seconds = Number(values.seconds);
  const warmupSeconds = Number(values.warmup);
  const rounds = Number(values.rounds);
  // The peers run compiled JavaScript, as in production: build them and what they import.
  log("building bench/ and the packages it uses (tsc -b bench)");
  const tsc = fileURLToPath(new URL("../node_modules/.bin/tsc", import.meta.url));
  execFileSync(tsc, ["-b", fileURLToPath(new URL(".", import.meta.url))], { stdio: "inherit" });
  const cells = await runRpcBench(
    { seconds, warmupSeconds, rounds, serverCpu: 0, loadCpu: 1 },
    log,
  );
  const example = h2loadArgs(
    {
      url: "http://127.0.0.1:<port>/costplugin.v1.CostSourceService/GetProjectedCost",
      body: new Uint8Array(),
      headers: { "content-type": "application/grpc", te: "trailers" },
      http1: false,
      connections: 4,
      streams: 16,
      seconds,
      warmupSeconds,
      cpu: 1,
    },
    "<request.bin>",
    "<requests.log>",
  );
  sections.push({
    title:
      "Unary GetProjectedCost: one-port server vs plain connect-node, grpc-js and a plain Fastify route",
    markdown: [
      `Every peer runs in its own process pinned to CPU 0, compiled (\`tsc -b bench\`, then \`taskset -c 0 node bench/dist/servers/<server>.js\`); the load generator h2load runs pinned to CPU 1, ${warmupSeconds} s warm-up then ${seconds} s measured per cell. All peers are started first and idle while another one is loaded; each cell's peers are loaded one right after the other, ${rounds} rounds in rotating order, and the table shows the round with the median req/s (every round's figure in the last column). Latency percentiles come from h2load's per-request log (successful responses only). Every peer is checked with a real client before it is loaded.`,
      "",
      "Every peer does the same work per call: the reference plugin (`plugin-list-price`) behind the SDK's CostSourceService implementation (request validation, error boundary) measured by the SDK's metrics interceptor; logs are off everywhere. `one-port` is `startServer()` as shipped (fast path on), `one-port-connect` the same server with `fastPath: false` (everything through connect-fastify), `connect-node` plain `connectNodeAdapter` on `node:http2` / `node:http`, `grpc-js` a `@grpc/grpc-js` server with protobuf-es codecs, `fastify-json` a plain Fastify JSON route (protobuf-es JSON in and out).",
      "",
      `Example load command: \`taskset -c 1 h2load ${example.join(" ")}\` (HTTP/1.1 rows add \`--h1\`).`,
      "",
      rpcBenchMarkdown(cells),
    ].join("\n"),
  });
  writeReport();
}

if (values.only === undefined || values.only === "observability") {
  sections.push(
    await runObservabilityBench({
      seconds: Number(values.seconds),
      warmupSeconds: Number(values.warmup),
      rounds: Number(values.rounds),
      serverCpu: 0,
      loadCpu: 1,
      log,
    }),
  );
  writeReport();
}

// Further sections come from packages' own benchmarks: packages/*/bench/*.bench.ts export run().
const packagesDir = fileURLToPath(new URL("../packages/", import.meta.url));
for (const pkg of readdirSync(packagesDir)) {
  let files: string[] = [];
  try {
    files = readdirSync(`${packagesDir}${pkg}/bench`).filter((f) => f.endsWith(".bench.ts"));
  } catch {
    continue;
  }
  for (const file of files) {
    if (values.only !== undefined && values.only !== pkg) continue;
    log(`running ${pkg}/bench/${file}`);
    const mod = (await import(`${packagesDir}${pkg}/bench/${file}`)) as {
      run(): Promise<{ title: string; markdown: string }>;
    };
    sections.push(await mod.run());
    writeReport();
  }
}

/** Writes what was measured so far: a section that hangs or fails later loses only itself. */
function writeReport(): void {
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  const header = [
    "# Benchmarks",
    "",
    "Written by `pnpm bench` (`bench/run.ts`); rerun it to refresh. Ratios matter more than absolute figures: every peer runs in the same run on the same machine.",
    "",
    `- Date: ${started.toISOString()}`,
    `- Machine: ${cpus().length} x ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${process.platform} ${process.arch}`,
    `- Node.js: ${process.version}`,
    `- Load average (1 min) of the machine at start and end: ${loadAtStart.toFixed(2)} / ${(loadavg()[0] ?? 0).toFixed(2)} (other work on the same cores makes figures noisy; the per-round column shows how much)`,
    `- Command: \`pnpm bench\` (options: \`--seconds N\`, \`--warmup N\`, \`--rounds N\`, \`--only rpc|observability|<package>\`)`,
    "",
  ];
  const body = sections.map((s) => `## ${s.title}\n\n${s.markdown}\n`);
  writeFileSync(values.output as string, `${header.join("\n")}\n${body.join("\n")}`);
  log(`wrote ${values.output}`);
}
writeReport();
