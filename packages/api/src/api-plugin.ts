import fastifyRateLimit from "@fastify/rate-limit";
import fastifySwagger from "@fastify/swagger";
import type {
  FastifyError,
  FastifyInstance,
  FastifyPluginAsync,
  FastifyRequest,
  RouteOptions,
} from "fastify";
import type { ApiOptions } from "./api-options.js";
import { type ApiServices, createApiServices } from "./api-services.js";
import { enforceAccess, registerAuth } from "./auth/jwt-auth.js";
import { NotFoundError, TooManyRequestsError } from "./errors.js";
import { refuseHostileInput } from "./input-guard.js";
import { describeRoute, finishDocument } from "./openapi-document.js";
import { problemFromError, sendProblem } from "./problem.js";
import { modelRoutes } from "./routes/models-routes.js";
import { oauthRoutes } from "./routes/oauth-routes.js";
import { processorRoutes } from "./routes/processors-routes.js";
import { promptRoutes } from "./routes/prompts-routes.js";
import { responseRoutes } from "./routes/responses-routes.js";
import { taskRoutes } from "./routes/tasks-routes.js";
import { typeBoxValidatorCompiler } from "./typebox-validator.js";

/** The default path prefix of the API. */
export const defaultApiPrefix = "/api/v1";

/** Options of `fastifyApiPlugin`. */
export interface ApiPluginOptions extends ApiOptions {
  /**
   * Services built beforehand with `createApiServices` (tests use this to reach the scheduler
   * and clock). The plugin starts them when the server is ready and closes them with it.
   * Default: built from the options.
   */
  readonly services?: ApiServices;
  /** Where the console processor writes. Default standard error. */
  readonly consoleWrite?: (line: string) => void;
}

function rateLimitKey(request: FastifyRequest): string {
  return request.principal ? `token:${request.principal.tokenHash}` : `ip:${request.ip}`;
}

function appendOnRequest(route: RouteOptions, hook: (request: FastifyRequest) => Promise<void>) {
  const current = route.onRequest;
  route.onRequest = [...(current === undefined ? [] : [current].flat()), hook] as typeof current;
}

async function apiScope(
  scope: FastifyInstance,
  options: ApiPluginOptions & { prefixPath: string },
): Promise<void> {
  const services =
    options.services ??
    (await createApiServices(options, {
      onError: (error) => scope.log.error({ err: error }, "background task failed"),
      consoleWrite: options.consoleWrite,
    }));
  scope.addHook("onReady", () => services.start());
  scope.addHook("onClose", () => services.close());

  const bodyLimit = options.bodyLimit ?? 1_048_576;
  const docsPrefix = `${options.prefixPath}/docs`;
  scope.addHook("onRoute", (route) => {
    route.bodyLimit ??= bodyLimit;
    if (route.url === docsPrefix || route.url.startsWith(`${docsPrefix}/`)) {
      route.config = { ...route.config, access: "public" };
    }
  });

  scope.setValidatorCompiler(typeBoxValidatorCompiler);
  // Bodies are JSON (and a form on the token endpoint, which adds its own parser): anything
  // else is a 415, not a string handed to validation.
  scope.removeContentTypeParser("text/plain");
  scope.addHook("preValidation", async (request) => {
    refuseHostileInput({ body: request.body, querystring: request.query, params: request.params });
  });
  scope.setErrorHandler((error, request, reply) => {
    const problem = problemFromError(error as FastifyError, request);
    if (problem.status >= 500) request.log.error({ err: error }, "request failed");
    return sendProblem(reply, problem);
  });
  scope.setNotFoundHandler((request, reply) =>
    sendProblem(
      reply,
      problemFromError(
        new NotFoundError(`no route ${request.method} ${request.url.split("?")[0]}`),
        request,
      ),
    ),
  );

  await registerAuth(scope, {
    auth: options.auth,
    isClientActive: (clientId) => services.clients.exists(clientId),
  });

  if (options.rateLimit !== false) {
    const limits = options.rateLimit ?? { max: 300, timeWindowMs: 60_000 };
    let redis: import("ioredis").Redis | undefined;
    if (limits.redisUrl) {
      // ioredis is loaded only when replicas share their counters.
      const { Redis } = await import("ioredis");
      const client = new Redis(limits.redisUrl, {
        maxRetriesPerRequest: 1,
        enableOfflineQueue: true,
        lazyConnect: false,
      });
      client.on("error", (error) => scope.log.warn({ err: error }, "rate-limit store error"));
      scope.addHook("onClose", async () => {
        await client.quit().catch(() => client.disconnect());
      });
      redis = client;
    }
    await scope.register(fastifyRateLimit, {
      global: true,
      max: limits.max,
      timeWindow: limits.timeWindowMs,
      keyGenerator: rateLimitKey,
      enableDraftSpec: true,
      ...(redis ? { redis, nameSpace: limits.redisNamespace ?? "costplugin-rl:" } : {}),
      errorResponseBuilder: (_request, context) =>
        new TooManyRequestsError(
          `rate limit of ${context.max} requests exceeded; retry in ${context.after}`,
        ),
    });
  }
  // After the rate limiter's own route hook, so refused callers are counted too.
  scope.addHook("onRoute", (route) => appendOnRequest(route, enforceAccess));

  await scope.register(fastifySwagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "costplugin REST API",
        version: "1.0.0",
        description:
          "Scheduled AI tasks: prompts, models, processors, tasks and their responses. Bearer tokens (JWT) carry roles: viewer reads, operator also executes and controls tasks and tests prompts and models, admin also changes everything; each operation names the roles it accepts. Errors are RFC 9457 problem documents; lists are cursor-paginated (`limit`, `cursor`, `next_cursor` and a `Link` header).",
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
          oauth2: {
            type: "oauth2",
            flows: {
              clientCredentials: {
                tokenUrl: `${options.prefixPath}/oauth/token`,
                scopes: { viewer: "read", operator: "execute and control", admin: "everything" },
              },
            },
          },
        },
      },
    },
    transform: describeRoute,
    transformObject: finishDocument,
  });
  scope.get(
    "/openapi.json",
    {
      config: { access: "public" },
      schema: {
        operationId: "getOpenApiDocument",
        tags: ["docs"],
        summary: "This OpenAPI 3.1 document",
      },
    },
    async () => scope.swagger(),
  );
  if (options.docs !== false) {
    // The docs page (and its static assets) is loaded only where it is served.
    const { default: fastifySwaggerUi } = await import("@fastify/swagger-ui");
    // `indexPrefix` makes the page's asset links absolute and right with or without a
    // trailing slash (`/api/v1/docs` and `/api/v1/docs/`).
    await scope.register(fastifySwaggerUi, {
      routePrefix: "/docs",
      indexPrefix: options.prefixPath,
    });
  }

  await promptRoutes(scope, services);
  await taskRoutes(scope, services);
  await modelRoutes(scope, services);
  await processorRoutes(scope, services);
  await responseRoutes(scope, services);
  await oauthRoutes(scope, services, options.auth);
}

/**
 * The REST API as a Fastify plugin. It owns its prefix (`options.prefix`, default `/api/v1`):
 * register it without one. Registered with `{ prefix: "/api/v1" }` it notices and does not add
 * the prefix twice. Everything (validation, errors, auth, rate limits, docs) stays inside its
 * own encapsulated scope, so the rest of the server is not affected.
 */
export const fastifyApiPlugin: FastifyPluginAsync<ApiPluginOptions> = async (fastify, options) => {
  const prefix = (options.prefix ?? defaultApiPrefix).replace(/\/+$/, "");
  const inherited = fastify.prefix.replace(/\/+$/, "");
  const own = inherited.endsWith(prefix) ? "" : prefix;
  await fastify.register(apiScope, { ...options, prefix: own, prefixPath: `${inherited}${own}` });
};

/** Wraps `fastifyApiPlugin` with its options, for `ServerOptions.extensions`. */
export function createApiExtension(options: ApiPluginOptions): FastifyPluginAsync {
  return async (fastify) => {
    await fastify.register(fastifyApiPlugin, options);
  };
}
