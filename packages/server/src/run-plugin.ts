import type { CostSourcePlugin } from "@costplugin/sdk";
import { parseHostOptions } from "./host-options.js";
import { createServerLogger } from "./logger.js";
import type { ServerOptions } from "./server-options.js";
import type { RunningServer } from "./start-server.js";
import { startServer } from "./start-server.js";
import { createTracing, tracingOptionsFromEnv } from "./tracing.js";

/** Options of `runPlugin`; every field defaults to the real process. */
export interface RunPluginOptions {
  /** Command-line arguments after the script. Default: `process.argv.slice(2)`. */
  readonly argv?: readonly string[];
  /** Environment. Default: `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Server options other than the plugin; `host` and `port` come from argv/env. */
  readonly server?: Partial<ServerOptions>;
}

/** Exit status for a command line or environment the process cannot run with. */
const exitUsage = 2;

/**
 * The entry point of a plugin process, following the plugin host contract: listens where
 * `--port`/`COSTPLUGIN_PLUGIN_PORT`/`--host` say (an ephemeral port on 127.0.0.1 by default),
 * traces over OTLP when the standard `OTEL_*` variables name an endpoint,
 * prints exactly one `PORT=<n>` line on stdout once listening, logs only on stderr, and shuts
 * down gracefully on SIGTERM or SIGINT, exiting 0 (a second signal exits 1 at once). An unusable
 * port or host is reported on stderr and exits with status 2; a failure to listen exits 1.
 */
export async function runPlugin(
  plugin: CostSourcePlugin,
  options: RunPluginOptions = {},
): Promise<RunningServer> {
  const env = options.env ?? process.env;
  const log = createServerLogger({
    options: typeof options.server?.logger === "object" ? options.server.logger : {},
    stream: options.server?.logStream,
    prettyWhenNoStream: process.stderr.isTTY === true,
  });
  let host: ReturnType<typeof parseHostOptions>;
  try {
    host = parseHostOptions(options.argv ?? process.argv.slice(2), env);
  } catch (error) {
    log.fatal({ err: error }, (error as Error).message);
    process.exit(exitUsage);
  }
  const tracing = options.server?.tracing ?? createTracing(tracingOptionsFromEnv(env));
  let running: RunningServer;
  try {
    running = await startServer({
      ...options.server,
      plugin,
      host: host.host,
      port: host.port,
      tracing,
    });
  } catch (error) {
    log.fatal({ err: error }, `cannot listen on ${host.host}:${host.port}`);
    process.exit(1);
  }
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn({ signal }, "second signal during shutdown: exiting now");
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, "shutting down");
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  // Only now: a host may signal the moment it reads the line.
  process.stdout.write(`PORT=${running.port}\n`);
  return {
    ...running,
    close: async () => {
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
      await running.close();
    },
  };
}
