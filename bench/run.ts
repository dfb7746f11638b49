// `pnpm bench`: measures the one-port server against its peers side by side in one run and
// writes BENCHMARKS.md. Not part of the tests.
import { readdirSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { h2loadArgs } from "./h2load.js";
import { rpcBenchMarkdown, runRpcBench } from "./rpc-bench.js";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "5" },
    warmup: { type: "string", default: "1" },
    only: { type: "string" },
    output: { type: "string", default: "BENCHMARKS.md" },
  },
});

const log = (s: string) => process.stderr.write(`${s}\n`);
const sections: Array<{ title: string; markdown: string }> = [];
const started = new Date();

if (values.only === undefined || values.only === "rpc") {
  const seconds = Number(values.seconds);
  const warmupSeconds = Number(values.warmup);
  const cells = await runRpcBench({ seconds, warmupSeconds, serverCpu: 0, loadCpu: 1 }, log);
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
      `Each server runs alone in its own process pinned to CPU 0 (\`taskset -c 0 node --conditions=source --import tsx bench/servers/<server>.ts\`); the load generator h2load runs pinned to CPU 1, ${warmupSeconds} s warm-up then ${seconds} s measured per cell. Latency percentiles come from h2load's per-request log (successful responses only). Every peer is checked with a real client before it is loaded.`,
      "",
      `Example load command: \`taskset -c 1 h2load ${example.join(" ")}\` (HTTP/1.1 rows add \`--h1\`).`,
      "",
      rpcBenchMarkdown(cells),
    ].join("\n"),
  });
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
  }
}

const cpu = cpus()[0]?.model ?? "unknown CPU";
const header = [
  "# Benchmarks",
  "",
  "Written by `pnpm bench` (`bench/run.ts`); rerun it to refresh. Ratios matter more than absolute figures: every peer runs in the same run on the same machine.",
  "",
  `- Date: ${started.toISOString()}`,
  `- Machine: ${cpus().length} x ${cpu}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${process.platform} ${process.arch}`,
  `- Node.js: ${process.version}`,
  `- Command: \`pnpm bench\` (options: \`--seconds N\`, \`--warmup N\`, \`--only rpc|<package>\`)`,
  "",
];
const body = sections.map((s) => `## ${s.title}\n\n${s.markdown}\n`);
writeFileSync(values.output as string, `${header.join("\n")}\n${body.join("\n")}`);
log(`wrote ${values.output}`);
