import { mkdtempSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestPostgresDatabase, type TestPostgresDatabase } from "@costplugin/store/testing";
import Fastify, {
  type FastifyInstance,
  type InjectOptions,
  type LightMyRequestResponse,
} from "fastify";
import type { ApiOptions } from "./api-options.js";
import { type ApiPluginOptions, fastifyApiPlugin } from "./api-plugin.js";
import { type ApiServices, createApiServices } from "./api-services.js";
import { mintToken } from "./auth/mint-token.js";
import type { Role } from "./auth/roles.js";
import { createManualClock, type ManualClock } from "./manual-clock.js";

/** The HS256 secret of test APIs. */
export const testSecret = "test-secret-0123456789-abcdefghijklmnop";

/** The storage engines store-backed tests run on. */
export const testEngines = ["sqlite", "postgres"] as const;

/** A test API and what tests need to drive it. */
export interface TestApi {
  readonly app: FastifyInstance;
  readonly services: ApiServices;
  readonly clock: ManualClock;
  readonly fileRoot: string;
  readonly consoleLines: string[];
  /** Every route registered, with its declared access. */
  readonly routes: TestRoute[];
  /** A token of `role`, signed with the test secret. */
  token(role: Role, sub?: string): string;
  /** Injects a request with a bearer token of `role` (or none when `role` is null). */
  call(role: Role | null, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** A registered route. */
export interface TestRoute {
  readonly method: string;
  readonly url: string;
  readonly access: string | undefined;
}

/** Options of `buildTestApi`. */
export type TestApiOptions = Partial<ApiPluginOptions> & {
  readonly engine?: "sqlite" | "postgres";
  readonly databaseUrl?: string;
  /** Receives every log line of the app (level info and above). */
  readonly logLines?: string[];
};

/**
 * Builds a Fastify app with the API on a fresh database (an in-memory SQLite, or a new
 * PostgreSQL database dropped on close), a manual clock, no rate limit, no scheduler, no docs
 * page and fast retries, unless overridden.
 */
export async function buildTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  let pg: TestPostgresDatabase | undefined;
  let databaseUrl = options.databaseUrl ?? ":memory:";
  if (options.engine === "postgres" && options.databaseUrl === undefined) {
    pg = await createTestPostgresDatabase();
    databaseUrl = pg.url;
  }
  const clock =
    (options.clock as ManualClock | undefined) ??
    createManualClock(new Date("2025-01-06T08:00:00.000Z"));
  const fileRoot = options.fileProcessorRoot ?? mkdtempSync(join(tmpdir(), "api-files-"));
  const consoleLines: string[] = [];
  const { logLines: _ignored, ...pluginOverrides } = options;
  const apiOptions: ApiOptions = {
    databaseUrl,
    auth: { secret: testSecret },
    rateLimit: false,
    scheduler: "off",
    retry: { maxAttempts: 3, initialDelayMs: 1, maxDelayMs: 4 },
    fileProcessorRoot: fileRoot,
    // The docs page is tested where it is the subject; elsewhere it only costs time.
    docs: false,
    ...pluginOverrides,
    clock,
  };
  const routes: TestRoute[] = [];
  const services =
    options.services ??
    (await createApiServices(apiOptions, { consoleWrite: (line) => consoleLines.push(line) }));
  const logLines = options.logLines;
  const app = Fastify({
    logger: logLines
      ? { level: "info", stream: { write: (line: string) => logLines.push(line) } }
      : false,
  });
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) {
      routes.push({ method, url: route.url, access: route.config?.access });
    }
  });
  await app.register(fastifyApiPlugin, { ...apiOptions, services });
  await app.ready();
  return {
    app,
    services,
    clock,
    fileRoot,
    consoleLines,
    routes,
    token: (role, sub = `${role}-user`) => mintToken({ secret: testSecret, role, sub }),
    call(role, inject) {
      const headers = { ...(inject.headers ?? {}) } as Record<string, string>;
      if (role !== null)
        headers.authorization = `Bearer ${mintToken({ secret: testSecret, role, sub: `${role}-user` })}`;
      return app.inject({ ...inject, headers });
    },
    async close() {
      await app.close();
      await pg?.drop();
    },
  };
}

/** Parses a JSON response body. */
export function json<T = Record<string, unknown>>(response: LightMyRequestResponse): T {
  return JSON.parse(response.body) as T;
}

/** A recorded request to a stand-in server. */
export interface StandInRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A local HTTP server on 127.0.0.1 playing a remote service. */
export interface StandIn {
  readonly url: string;
  readonly requests: StandInRequest[];
  /** Replaces the handler. */
  handle(handler: StandInHandler): void;
  close(): Promise<void>;
}

/** Answers one request: status, JSON body, or `hang` to never answer. */
export type StandInHandler = (
  request: StandInRequest,
  index: number,
) => { status: number; body?: unknown } | "hang";

/** Starts a stand-in server on 127.0.0.1:0. */
export async function startStandIn(handler: StandInHandler): Promise<StandIn> {
  let current = handler;
  const requests: StandInRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const recorded = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(recorded);
      const answer = current(recorded, requests.length - 1);
      if (answer === "hang") {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(
        answer.body === undefined
          ? ""
          : typeof answer.body === "string"
            ? answer.body
            : JSON.stringify(answer.body),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      current = next;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
