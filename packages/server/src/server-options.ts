import type { CostSourcePlugin, Observability } from "@costplugin/sdk";
import type { FastifyPluginAsync } from "fastify";
import type { DestinationStream, LoggerOptions } from "pino";
import type { Tracing } from "./tracing.js";

/** Certificate and key (PEM) for serving HTTPS; ALPN then picks h2 or http/1.1 per connection. */
export interface TlsOptions {
  /** The certificate chain in PEM form. */
  readonly cert: string | Buffer;
  /** The private key in PEM form. Never logged. */
  readonly key: string | Buffer;
}

/** Which browser origins may call the server cross-origin. */
export interface CorsOptions {
  /**
   * Exact origins (`"https://app.example.com"`) allowed to make cross-origin calls, or `"*"` for
   * any origin. Default (when `cors` is omitted): loopback origins only (`http(s)://localhost`,
   * `127.0.0.1`, `[::1]`, any port), so local tools work and arbitrary web sites cannot read a
   * locally running plugin.
   */
  readonly allowedOrigins: readonly string[] | "*";
}

/**
 * Connection and request timeouts. Fastify stops applying its own when a server is supplied
 * through `serverFactory`, so every one of them is set here explicitly.
 */
export interface TimeoutOptions {
  /**
   * Time a new connection has to send its first bytes and, on HTTP/1.1, the complete request
   * head. Default 10 000 ms: enough for any honest client, short enough to shed idle sockets.
   */
  readonly headersMs?: number;
  /**
   * Time an HTTP/1.1 client has to send the whole request (head and body). Default 30 000 ms.
   */
  readonly requestMs?: number;
  /**
   * How long an idle HTTP/1.1 keep-alive connection stays open. Default 72 000 ms: longer than
   * the 60 s idle timeout of common load balancers, so the server is never the side that closes
   * a connection the proxy believes open.
   */
  readonly keepAliveMs?: number;
  /** How long an idle HTTP/2 session stays open before it gets GOAWAY. Default 72 000 ms. */
  readonly http2SessionMs?: number;
}

/** Everything `buildApp` and `startServer` accept. */
export interface ServerOptions {
  /** The plugin to serve. */
  readonly plugin: CostSourcePlugin;
  /** Interface to bind. Default `127.0.0.1`: a plugin is reachable from this machine only. */
  readonly host?: string;
  /** TCP port. Default 0: an ephemeral port, read back from `RunningServer.port`. */
  readonly port?: number;
  /** Serve HTTPS (h2 and http/1.1 through ALPN) instead of cleartext. Default: cleartext. */
  readonly tls?: TlsOptions;
  /** Cross-origin access for browsers; `false` sends no CORS headers at all. See `CorsOptions`. */
  readonly cors?: CorsOptions | false;
  /**
   * Largest request message accepted, in bytes, after decompression. Larger messages are
   * answered `resource_exhausted`. Default 4 MiB, the limit gRPC clients use by default.
   */
  readonly readMaxBytes?: number;
  /**
   * Pino options for the server's logger, or `false` for no logs. Default: level `info`, JSON
   * lines on stderr (pretty when stderr is a terminal), secrets redacted.
   */
  readonly logger?: LoggerOptions | false;
  /** Where log lines are written. Default: stderr (fd 2). */
  readonly logStream?: DestinationStream;
  /**
   * The metrics, health and SLI state shared by the RPC interceptor, the ObservabilityService,
   * `/metrics` and `/readyz`. Default: a fresh `createObservability()`. Pass one to register
   * plugin metrics on its registry before the server starts.
   */
  readonly observability?: Observability;
  /**
   * Measure RPCs: install the observability's interceptor (request counter, duration histogram,
   * in-flight gauge, SLI window), serve `/metrics` and collect prom-client's process metrics.
   * Default `true`. `false` leaves every call unmeasured and `/metrics` unrouted (404), for
   * deployments that measure elsewhere and for benchmarks; GetMetrics then reports only what a
   * plugin registers itself and the SLIs have no data. Health (`/readyz`, HealthCheck,
   * grpc.health.v1) is unaffected.
   */
  readonly metrics?: boolean;
  /**
   * How often an open grpc.health.v1 Watch runs the health probe, in milliseconds. Default 5000.
   */
  readonly healthWatchIntervalMs?: number;
  /**
   * OpenTelemetry tracing: its interceptor wraps every RPC (outermost, so spans include the
   * metrics work) and it is flushed on close. Default: none (`runPlugin` creates one from the
   * standard `OTEL_*` environment variables when an endpoint is configured).
   */
  readonly tracing?: Tracing;
  /** A directory with a built web app, served at `/` (`index.html` for `/`). Default: none. */
  readonly staticDir?: string;
  /** Fastify plugins registered in the same instance, e.g. a REST API under `/api/v1`. */
  readonly extensions?: ReadonlyArray<FastifyPluginAsync>;
  /** Called once on close, after in-flight calls finished and after `plugin.close()`. */
  readonly onClose?: () => void | Promise<void>;
  /** Connection and request timeouts; see `TimeoutOptions` for each default. */
  readonly timeouts?: TimeoutOptions;
  /**
   * How long `close()` waits for in-flight calls before they are aborted with `unavailable`.
   * Default 15 000 ms: covers the longest default client deadline of a projected-cost call and
   * stays under the 30 s grace period of common process supervisors.
   */
  readonly shutdownTimeoutMs?: number;
  /**
   * Serve unary RPCs of the plugin's services on the lean fast path (`src/fast-path/`), which
   * answers gRPC, gRPC-web and Connect (binary, JSON, GET) straight on Node's HTTP/2 and HTTP/1.1
   * APIs with the same interceptors, limits, errors, headers and CORS as the Connect path, and
   * hands everything else (streaming, preflights, other content types) to it. Default `true`;
   * `false` sends every request through connect-fastify.
   */
  readonly fastPath?: boolean;
}

/** `ServerOptions` with every default applied and every number checked. */
export interface ResolvedServerOptions {
  readonly plugin: CostSourcePlugin;
  readonly host: string;
  readonly port: number;
  readonly tls: TlsOptions | undefined;
  readonly cors: CorsOptions | false | undefined;
  readonly readMaxBytes: number;
  readonly logger: LoggerOptions | false;
  readonly logStream: DestinationStream | undefined;
  readonly observability: Observability | undefined;
  readonly metrics: boolean;
  readonly healthWatchIntervalMs: number;
  readonly tracing: Tracing | undefined;
  readonly staticDir: string | undefined;
  readonly extensions: ReadonlyArray<FastifyPluginAsync>;
  readonly onClose: (() => void | Promise<void>) | undefined;
  readonly timeouts: Required<TimeoutOptions>;
  readonly shutdownTimeoutMs: number;
  readonly fastPath: boolean;
}

/** The defaults of `ServerOptions`, in one place. */
export const serverDefaults = {
  host: "127.0.0.1",
  port: 0,
  readMaxBytes: 4 * 1024 * 1024,
  timeouts: { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 72_000, http2SessionMs: 72_000 },
  shutdownTimeoutMs: 15_000,
  fastPath: true,
  metrics: true,
  healthWatchIntervalMs: 5000,
} as const;

/** Applies defaults and rejects impossible values with a message naming the option. */
export function resolveServerOptions(options: ServerOptions): ResolvedServerOptions {
  const timeouts = { ...serverDefaults.timeouts, ...options.timeouts };
  for (const [name, value] of Object.entries(timeouts)) {
    requirePositiveInteger(`timeouts.${name}`, value);
  }
  if (timeouts.requestMs < timeouts.headersMs) {
    throw new RangeError("timeouts.requestMs must not be shorter than timeouts.headersMs");
  }
  const port = options.port ?? serverDefaults.port;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new RangeError(`port must be an integer from 0 to 65535, got ${String(port)}`);
  }
  const readMaxBytes = options.readMaxBytes ?? serverDefaults.readMaxBytes;
  requirePositiveInteger("readMaxBytes", readMaxBytes);
  const healthWatchIntervalMs =
    options.healthWatchIntervalMs ?? serverDefaults.healthWatchIntervalMs;
  requirePositiveInteger("healthWatchIntervalMs", healthWatchIntervalMs);
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? serverDefaults.shutdownTimeoutMs;
  if (!Number.isInteger(shutdownTimeoutMs) || shutdownTimeoutMs < 0) {
    throw new RangeError("shutdownTimeoutMs must be a non-negative integer");
  }
  return {
    plugin: options.plugin,
    host: options.host ?? serverDefaults.host,
    port,
    tls: options.tls,
    cors: options.cors,
    readMaxBytes,
    logger: options.logger ?? {},
    logStream: options.logStream,
    observability: options.observability,
    metrics: options.metrics ?? serverDefaults.metrics,
    healthWatchIntervalMs,
    tracing: options.tracing,
    staticDir: options.staticDir,
    extensions: options.extensions ?? [],
    onClose: options.onClose,
    timeouts,
    shutdownTimeoutMs,
    fastPath: options.fastPath ?? serverDefaults.fastPath,
  };
}

function requirePositiveInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive integer, got ${String(value)}`);
  }
}
