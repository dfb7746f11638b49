import type { Server } from "node:http";
import { Code, ConnectError, createContextValues } from "@connectrpc/connect";
import type { UniversalHandler } from "@connectrpc/connect/protocol";
import { fastifyConnectPlugin } from "@connectrpc/connect-fastify";
import type { Observability } from "@costplugin/sdk";
import { createObservability, createPluginRoutes } from "@costplugin/sdk";
import fastifyCors from "@fastify/cors";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { fastify, LogController } from "fastify";
import type { RequestHandler } from "./connection-router.js";
import { createConnectionRouter } from "./connection-router.js";
import { createConnectionTracker } from "./connection-tracker.js";
import { fastifyCorsOptionsFromCors } from "./cors.js";
import { installErrorHandlers } from "./error-handlers.js";
import { createFastPath } from "./fast-path/fast-path.js";
import { registerHealthRoutes } from "./health-routes.js";
import { createServerLogger } from "./logger.js";
import { requestIdFromHeaders } from "./request-id.js";
import { installRequestLog, rpcRecordOf } from "./request-log.js";
import { withRpcOutcome } from "./rpc-outcome.js";
import { rpcRecordKey } from "./rpc-record.js";
import type { ResolvedServerOptions, ServerOptions } from "./server-options.js";
import { resolveServerOptions } from "./server-options.js";
import { installGracefulClose } from "./shutdown.js";
import { createTlsServer } from "./tls-server.js";

/** What aborted calls see when the shutdown timeout passes: retry elsewhere, not a bug. */
const shutdownError = new ConnectError("server is shutting down", Code.Unavailable);

/**
 * Builds the Fastify app of a plugin without listening: Connect, gRPC and gRPC-web routes of
 * the plugin's services, CORS, `/metrics`, `/healthz`, `/readyz`, the optional static web app
 * and extensions, request ids and logs. `startServer` listens; tests may use `app.inject()`.
 */
export async function buildApp(options: ServerOptions): Promise<FastifyInstance> {
  return buildAppFromResolved(resolveServerOptions(options));
}

/** `buildApp` for options already resolved (so `startServer` resolves them only once). */
export async function buildAppFromResolved(
  options: ResolvedServerOptions,
): Promise<FastifyInstance> {
  const tracker = createConnectionTracker();
  const shutdown = new AbortController();
  const fastPath = options.fastPath
    ? createFastPath({
        readMaxBytes: options.readMaxBytes,
        cors: options.cors,
        shutdownSignal: shutdown.signal,
      })
    : undefined;
  const logger =
    options.logger === false
      ? undefined
      : createServerLogger({
          options: options.logger,
          stream: options.logStream,
          prettyWhenNoStream: process.stderr.isTTY === true,
        });

  const app = fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    // Fastify's own request lines cannot tell a failed gRPC call (HTTP 200) from a good one:
    // request-log.ts writes one line per request instead.
    logController: new LogController({
      disableRequestLogging: true,
      requestIdLogLabel: "requestId",
    }),
    genReqId: (request) => requestIdFromHeaders(request.headers),
    forceCloseConnections: false,
    serverFactory: (fastifyHandler) => {
      // Fastify's handler takes requests of both HTTP versions; its type names only HTTP/1.1.
      const handler = fastifyHandler as unknown as RequestHandler;
      const server = options.tls
        ? createTlsServer({
            tls: options.tls,
            handler,
            timeouts: options.timeouts,
            tracker,
            fastPath,
          })
        : createConnectionRouter({ handler, timeouts: options.timeouts, tracker, fastPath });
      installGracefulClose(server, {
        tracker,
        timeoutMs: options.shutdownTimeoutMs,
        onTimeout: () => shutdown.abort(shutdownError),
      });
      return server as unknown as Server;
    },
  }) as unknown as FastifyInstance;

  const observability: Observability =
    options.observability ??
    createObservability({ logger: app.log, defaultMetrics: options.metrics });
  installRequestLog(app);
  installErrorHandlers(app);
  if (options.cors !== false) {
    await app.register(fastifyCors, fastifyCorsOptionsFromCors(options.cors));
  }
  const pluginRoutes = createPluginRoutes(options.plugin, {
    logger: app.log,
    observability,
    healthWatchIntervalMs: options.healthWatchIntervalMs,
  });
  const measuring = options.metrics ? [observability.interceptor] : [];
  const interceptors = options.tracing ? [options.tracing.interceptor, ...measuring] : measuring;
  await app.register(fastifyConnectPlugin, {
    routes: (router) => {
      pluginRoutes(fastPath?.recordRoutes(router) ?? router);
      // connect-fastify registers whatever is in `router.handlers` once this returns.
      const handlers = router.handlers as UniversalHandler[];
      handlers.splice(0, handlers.length, ...handlers.map(withRpcOutcome));
    },
    readMaxBytes: options.readMaxBytes,
    interceptors,
    shutdownSignal: shutdown.signal,
    contextValues: (request) => createContextValues().set(rpcRecordKey, rpcRecordOf(request)),
  });
  fastPath?.attach(app, { interceptors });
  registerHealthRoutes(app, observability, { metrics: options.metrics });
  if (options.staticDir !== undefined) {
    await app.register(fastifyStatic, {
      root: options.staticDir,
      prefix: "/",
      index: ["index.html"],
    });
  }
  for (const extension of options.extensions) {
    await app.register(extension);
  }
  app.addHook("onClose", async () => {
    try {
      await options.plugin.close?.();
    } catch (error) {
      app.log.error({ err: error }, "plugin close failed");
    }
    await options.onClose?.();
    await options.tracing?.shutdown();
  });
  return app;
}
