import type { CostSourcePlugin, Observability } from "@costplugin/sdk";
import { Command, CommanderError, Option } from "commander";
import { createBillingStore } from "./billing-store.js";
import type { BillingConfig } from "./config.js";
import { loadBillingConfig } from "./config.js";
import { ConfigError } from "./config-error.js";
import type { ResolvedCredentials } from "./credentials.js";
import { resolveCredentials } from "./credentials.js";
import { isDay } from "./day.js";
import type { BillingLogger } from "./logger.js";
import { createLogger } from "./logger.js";
import type { PullSummary } from "./pull.js";
import { runPull } from "./pull.js";
import { PullLockedError } from "./pull-lock.js";
import { createPullProgress } from "./pull-progress.js";
import type { Redactor } from "./redactor.js";
import { createRedactor } from "./redactor.js";
import { createVendorClient } from "./vendor-client.js";
import { VendorError } from "./vendor-error.js";

/** Exit statuses of `costplugin-billing`. */
export const exitCodes = {
  /** Done. */
  ok: 0,
  /** The vendor or the store failed. */
  failure: 1,
  /** Bad command line, configuration or credentials. */
  usage: 2,
  /** `validate-token`: the vendor rejected the token (401/403). */
  rejected: 3,
  /** Another pull of the same source is running. */
  locked: 75,
  /** Interrupted by a signal; committed pages are kept. */
  interrupted: 130,
} as const;

/** Starts serving a plugin; `runPlugin` of `@costplugin/server` in production. */
export type ServePlugin = (
  plugin: CostSourcePlugin,
  options: {
    argv: string[];
    env: Readonly<Record<string, string | undefined>>;
    server: { observability: Observability };
  },
) => Promise<unknown>;

/** What the command line runs against: the process in production, fakes in tests. */
export interface CliEnvironment {
  /** Arguments after the program name. */
  readonly argv: readonly string[];
  /** Environment variables. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Standard output: summaries and verdicts only. */
  readonly stdout: NodeJS.WritableStream;
  /** Standard error: logs, warnings, errors and the progress bar. */
  readonly stderr: NodeJS.WritableStream;
  /** Whether stderr is a terminal (progress bar) or not (log lines). */
  readonly stderrIsTTY: boolean;
  /** The clock. Default `() => new Date()`. */
  readonly now?: () => Date;
  /** The HTTP client. Default: global `fetch`. */
  readonly fetch?: typeof fetch;
  /** Starts the server for `serve`. */
  readonly serve: ServePlugin;
  /** Aborts a running pull (SIGINT/SIGTERM in production). */
  readonly signal?: AbortSignal;
}

/** Runs one command line and returns the exit status (`serve` returns once listening). */
export async function runCli(environment: CliEnvironment): Promise<number> {
  const now = environment.now ?? (() => new Date());
  let redact: Redactor = createRedactor([]);
  const logger: BillingLogger = createLogger({
    write: (line) => environment.stderr.write(line),
    redact: (text) => redact(text),
    format: "text",
    now: () => now().getTime(),
  });
  const fail = (message: string, code: number) => {
    environment.stderr.write(`${redact(`error: ${message}`)}\n`);
    return code;
  };
  let status: number = exitCodes.ok;

  const withConfig = async (path: string) => {
    const config = await loadBillingConfig(path, { env: environment.env });
    return config;
  };
  const credentialsFor = (config: BillingConfig): ResolvedCredentials => {
    const credentials = resolveCredentials(config, { env: environment.env });
    redact = createRedactor(credentials.secrets);
    for (const warning of credentials.warnings) logger.warn({}, warning);
    return credentials;
  };
  const clientFor = (config: BillingConfig, credentials: ResolvedCredentials) =>
    createVendorClient({
      baseUrl: config.vendorApiUrl,
      bearerToken: credentials.bearerToken,
      scope: credentials.scope,
      timeoutMs: config.requestTimeoutMs,
      maxAttempts: config.maxAttempts,
      retryInitialDelayMs: config.retryInitialDelayMs,
      retryMaxDelayMs: config.retryMaxDelayMs,
      rateLimitMaxWaitMs: config.rateLimitMaxWaitMs,
      breakerFailures: config.circuitBreakerFailures,
      breakerHalfOpenMs: config.circuitBreakerHalfOpenMs,
      now: () => now().getTime(),
      ...(environment.fetch === undefined ? {} : { fetch: environment.fetch }),
      onRetry: (event) =>
        logger.warn(
          { attempt: event.attempt, wait_ms: Math.round(event.delayMs), kind: event.kind },
          `retrying: ${event.reason}`,
        ),
    });

  const program = new Command("costplugin-billing")
    .description(
      "Pull daily costs from the vendor cost API into a store, and serve them as a costplugin.v1 plugin.",
    )
    .exitOverride()
    .configureOutput({
      writeOut: (text) => environment.stdout.write(text),
      writeErr: (text) => environment.stderr.write(text),
    })
    .showHelpAfterError()
    .addHelpText("after", helpEpilogue);

  const configOption = () =>
    new Option("-c, --config <path>", "the YAML configuration file").makeOptionMandatory();

  program
    .command("pull")
    .description("pull daily costs into the store (incremental unless a range is given)")
    .addOption(configOption())
    .option("--start-date <day>", "first day to back-fill (YYYY-MM-DD)")
    .option("--end-date <day>", "last day to back-fill, included (YYYY-MM-DD; default today)")
    .option("--json", "print the summary as one JSON object")
    .action(
      async (opts: { config: string; startDate?: string; endDate?: string; json?: boolean }) => {
        if (opts.startDate !== undefined && !isDay(opts.startDate)) {
          status = fail("--start-date must be a day written YYYY-MM-DD", exitCodes.usage);
          return;
        }
        if (opts.endDate !== undefined && !isDay(opts.endDate)) {
          status = fail("--end-date must be a day written YYYY-MM-DD", exitCodes.usage);
          return;
        }
        if (opts.endDate !== undefined && opts.startDate === undefined) {
          status = fail("--end-date needs --start-date", exitCodes.usage);
          return;
        }
        const config = await withConfig(opts.config);
        const credentials = credentialsFor(config);
        const today = now().toISOString().slice(0, 10);
        const range =
          opts.startDate === undefined
            ? undefined
            : { startDay: opts.startDate, endDay: opts.endDate ?? today };
        if (range && range.endDay < range.startDay) {
          status = fail("--end-date must not be before --start-date", exitCodes.usage);
          return;
        }
        const store = createBillingStore({ url: config.databaseUrl });
        try {
          await store.migrate();
          const client = clientFor(config, credentials);
          const summary = await runPull({
            store,
            client,
            source: config.source,
            groupings: config.groupings,
            pageSize: config.pageSize,
            chunkDays: config.chunkDays,
            lookbackDays: config.lookbackDays,
            initialDays: config.initialDays,
            ...(range === undefined ? {} : { range }),
            now,
            progress: createPullProgress({
              stream: environment.stderr,
              tty: environment.stderrIsTTY,
              logger,
              redact: (text) => redact(text),
            }),
            ...(environment.signal === undefined ? {} : { signal: environment.signal }),
          });
          environment.stdout.write(
            redact(opts.json ? `${JSON.stringify(summary)}\n` : formatSummary(summary)),
          );
        } finally {
          await store.close();
        }
      },
    );

  program
    .command("serve")
    .description("serve the stored costs over gRPC, gRPC-web and Connect on one port")
    .addOption(configOption())
    .option(
      "--port <port>",
      "port to listen on (default: COSTPLUGIN_PLUGIN_PORT, else any free port)",
    )
    .option("--host <host>", "interface to bind (default 127.0.0.1)")
    .action(async (opts: { config: string; port?: string; host?: string }) => {
      const config = await withConfig(opts.config);
      const store = createBillingStore({
        url: config.databaseUrl,
        mmapBytes: config.serveMmapBytes,
      });
      let closed = false;
      const closeStore = async () => {
        if (closed) return;
        closed = true;
        await store.close();
      };
      try {
        await store.migrate();
      } catch (error) {
        await closeStore();
        throw error;
      }
      // The serving stack loads only here: a pull never pays for it in start-up or memory.
      const [{ createObservability }, { registerBillingMetrics }, { createBillingPlugin }] =
        await Promise.all([
          import("@costplugin/sdk"),
          import("./billing-metrics.js"),
          import("./billing-plugin.js"),
        ]);
      const plugin = createBillingPlugin({
        store,
        source: config.source,
        staleAfterMs: config.staleAfterMs,
        projectionDays: config.projectionDays,
        now,
        onClose: closeStore,
      });
      const argv: string[] = [];
      if (opts.port !== undefined) argv.push("--port", opts.port);
      if (opts.host !== undefined) argv.push("--host", opts.host);
      const observability = createObservability();
      registerBillingMetrics(observability.registry, { store, source: config.source, now });
      await environment.serve(plugin, { argv, env: environment.env, server: { observability } });
    });

  program
    .command("validate-token")
    .description("send one request to the costs path and say whether the vendor accepts the token")
    .addOption(configOption())
    .action(async (opts: { config: string }) => {
      const config = await withConfig(opts.config);
      const credentials = credentialsFor(config);
      const client = clientFor(config, credentials);
      const result = await client.probe(environment.signal);
      const scope =
        credentials.scope.kind === "cost_report" ? "cost report token" : "workspace token";
      const lines: string[] = [];
      if (result.verdict === "accepted") {
        lines.push(`token accepted (HTTP ${result.status}) by ${config.vendorApiUrl}/costs`);
        lines.push(
          `API token from ${credentials.bearerSource}; ${scope} from ${credentials.scopeSource}`,
        );
        if (result.status === 400) {
          lines.push(
            "the vendor accepted the token but rejected the request parameters (HTTP 400): check params such as groupings",
          );
        }
      } else if (result.verdict === "rejected") {
        lines.push(`token rejected (HTTP ${result.status}) by ${config.vendorApiUrl}/costs`);
        lines.push(result.status === 401 ? unauthorizedHint : forbiddenHint);
        lines.push(
          `API token from ${credentials.bearerSource}; ${scope} from ${credentials.scopeSource}`,
        );
        status = exitCodes.rejected;
      } else {
        lines.push(
          `could not tell (HTTP ${result.status} from ${config.vendorApiUrl}/costs): the vendor may be down or the URL wrong; check params.vendor_api_url and try again`,
        );
        status = exitCodes.failure;
      }
      environment.stdout.write(redact(`${lines.join("\n")}\n`));
    });

  try {
    await program.parseAsync([...environment.argv], { from: "user" });
    return status;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
    }
    if (error instanceof ConfigError) return fail(error.message, exitCodes.usage);
    if (error instanceof PullLockedError) return fail(error.message, exitCodes.locked);
    if (error instanceof VendorError) return fail(error.message, exitCodes.failure);
    if (environment.signal?.aborted) {
      return fail(
        "pull interrupted: committed pages are kept; run pull again to finish",
        exitCodes.interrupted,
      );
    }
    const message = error instanceof Error ? error.message : String(error);
    return fail(`unexpected failure: ${message}`, exitCodes.failure);
  }
}

const helpEpilogue = `
Environment:
  COSTPLUGIN_BILLING_TOKEN_FILE         file holding the API token (wins over the variable)
  COSTPLUGIN_BILLING_TOKEN              the API token, sent as Authorization: Bearer
  COSTPLUGIN_BILLING_COST_REPORT_TOKEN  the cost report to read (preferred)
  COSTPLUGIN_BILLING_WORKSPACE_TOKEN    the workspace to read when no cost report token is set
  COSTPLUGIN_BILLING_API_URL            overrides params.vendor_api_url
  COSTPLUGIN_BILLING_DATABASE_URL       overrides params.database_url (file path or postgres:// URL)
  COSTPLUGIN_PLUGIN_PORT                serve: port when --port is not given

Exit status: 0 done, 1 vendor or store failure, 2 bad command line, configuration or
credentials, 3 validate-token rejected, 75 another pull of the source is running, 130
interrupted.

Example:
  costplugin-billing validate-token --config billing.yaml
  costplugin-billing pull --config billing.yaml
  costplugin-billing serve --config billing.yaml --port 50051
`;

const unauthorizedHint =
  "the token is missing, expired, revoked or unknown: create a new one in the vendor console under API token settings (its value is shown only once), update the secret, and run validate-token again";
const forbiddenHint =
  "the token lacks permission: the cost report token has no access to the configured report, or the workspace token has no cost access; grant read-only cost access, or use the cost report token from the report's API access";

/** The closing summary of a pull, as printed on stdout. */
export function formatSummary(summary: PullSummary): string {
  if (summary.days === 0) {
    return `source ${summary.source}: nothing to pull, the store is up to date\n`;
  }
  return [
    `source ${summary.source}: pulled ${summary.startDay} to ${summary.endDay} (${summary.days} day${summary.days === 1 ? "" : "s"}, ${summary.mode})`,
    `rows: ${summary.rowsNew} new, ${summary.rowsChanged} changed, ${summary.rowsUnchanged} unchanged, ${summary.rowsRemoved} removed`,
    `requests: ${summary.requests} (${summary.retries} retr${summary.retries === 1 ? "y" : "ies"}), pages: ${summary.pages}`,
    "",
  ].join("\n");
}
