// The one-port server with the reference plugin and each observability feature switched by a
// flag, to measure what metrics, logs and tracing cost:
//   --metrics on|off        the RPC metrics interceptor, process metrics and /metrics
//   --logs off|<file>       pino JSON lines at level info, one per RPC, written to <file> through
//                           the stream the server writes stderr with by default; /dev/null works
//   --tracing off|<url>     OpenTelemetry spans exported over OTLP/HTTP to <url>
import { openSync } from "node:fs";
import { parseArgs } from "node:util";
import { createListPricePlugin } from "@costplugin/plugin-list-price";
import { createLogDestination, createTracing, startServer } from "@costplugin/server";

const { values } = parseArgs({
  options: {
    metrics: { type: "string", default: "on" },
    logs: { type: "string", default: "off" },
    tracing: { type: "string", default: "off" },
  },
});

if (values.metrics !== "on" && values.metrics !== "off") {
  process.stderr.write(`--metrics must be on or off, got ${values.metrics}\n`);
  process.exit(2);
}
if (values.tracing !== "off" && !/^https?:\/\//.test(values.tracing)) {
  process.stderr.write(`--tracing must be off or an http(s) URL, got ${values.tracing}\n`);
  process.exit(2);
}

const logFd = values.logs === "off" ? undefined : openSync(values.logs, "a");
const running = await startServer({
  plugin: createListPricePlugin(),
  port: 0,
  metrics: values.metrics === "on",
  logger: logFd === undefined ? false : { level: "info" },
  logStream: logFd === undefined ? undefined : createLogDestination(logFd),
  tracing:
    values.tracing === "off"
      ? undefined
      : createTracing({ endpoint: values.tracing, serviceName: "costplugin-bench", headers: {} }),
});
process.stdout.write(`PORT=${running.port}\n`);
process.once("SIGTERM", () => void running.close().then(() => process.exit(0)));
