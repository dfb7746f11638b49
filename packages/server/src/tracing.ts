import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import {
  type Context,
  context,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { defaultResource, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider } from "@opentelemetry/sdk-trace-node";

/** Tracing configuration, read once from the standard OpenTelemetry environment variables. */
export interface TracingOptions {
  /** OTLP/HTTP traces endpoint, e.g. `http://collector:4318/v1/traces`. Unset: tracing is off. */
  readonly endpoint: string | undefined;
  /** `service.name` of the spans. Default `costplugin`. */
  readonly serviceName: string;
  /** Extra exporter headers (`OTEL_EXPORTER_OTLP_HEADERS`), e.g. an API key of the collector. */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Reads `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (or `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`),
 * `OTEL_SERVICE_NAME` and `OTEL_EXPORTER_OTLP_HEADERS`; `OTEL_SDK_DISABLED=true` or
 * `OTEL_TRACES_EXPORTER=none` switch tracing off.
 */
export function tracingOptionsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): TracingOptions {
  const disabled =
    env.OTEL_SDK_DISABLED?.toLowerCase() === "true" ||
    env.OTEL_TRACES_EXPORTER?.toLowerCase() === "none";
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, "");
  const endpoint =
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (base ? `${base}/v1/traces` : undefined);
  const headers: Record<string, string> = {};
  for (const pair of (env.OTEL_EXPORTER_OTLP_HEADERS ?? "").split(",")) {
    const eq = pair.indexOf("=");
    if (eq > 0)
      headers[decodeURIComponent(pair.slice(0, eq).trim())] = decodeURIComponent(
        pair.slice(eq + 1).trim(),
      );
  }
  return {
    endpoint: disabled ? undefined : endpoint,
    serviceName: env.OTEL_SERVICE_NAME ?? "costplugin",
    headers,
  };
}

/** An active tracer: the interceptor that makes one span per RPC, and its shutdown. */
export interface Tracing {
  /** Connect interceptor creating a SERVER span per RPC with the usual RPC attributes. */
  readonly interceptor: Interceptor;
  /** Flushes pending spans; call on shutdown. */
  shutdown(): Promise<void>;
}

const headerGetter: TextMapGetter<Headers> = {
  keys: (carrier) => [...carrier.keys()],
  get: (carrier, key) => carrier.get(key) ?? undefined,
};

/** The Connect protocol's snake_case name of a code, e.g. `invalid_argument`. */
function connectCodeName(code: Code): string {
  return Code[code].replace(/[A-Z]/g, (c, i: number) => (i > 0 ? "_" : "") + c.toLowerCase());
}

/** The RPC system attribute value for a request's content type. */
function rpcSystem(contentType: string): string {
  return contentType.startsWith("application/grpc") ? "grpc" : "connect_rpc";
}

/**
 * Creates the tracer when an endpoint is configured, otherwise returns undefined so that no
 * interceptor is installed at all: tracing costs nothing when it is off.
 */
export function createTracing(options: TracingOptions): Tracing | undefined {
  if (options.endpoint === undefined) return undefined;
  const provider = new NodeTracerProvider({
    resource: defaultResource().merge(
      resourceFromAttributes({ "service.name": options.serviceName }),
    ),
    spanProcessors: [
      new BatchSpanProcessor(
        new OTLPTraceExporter({ url: options.endpoint, headers: { ...options.headers } }),
      ),
    ],
  });
  const tracer: Tracer = provider.getTracer("@costplugin/server");
  const propagator = new W3CTraceContextPropagator();
  const interceptor: Interceptor = (next) => async (req) => {
    const parent: Context = propagator.extract(ROOT_CONTEXT, req.header, headerGetter);
    const system = rpcSystem(req.header.get("content-type") ?? "");
    const span = tracer.startSpan(
      `${req.service.typeName}/${req.method.name}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          "rpc.system": system,
          "rpc.service": req.service.typeName,
          "rpc.method": req.method.name,
        },
      },
      parent,
    );
    try {
      const res = await context.with(trace.setSpan(parent, span), () => next(req));
      // gRPC status 0 is OK.
      if (system === "grpc") span.setAttribute("rpc.grpc.status_code", 0);
      return res;
    } catch (error) {
      const ce = ConnectError.from(error);
      if (system === "grpc") span.setAttribute("rpc.grpc.status_code", ce.code);
      else span.setAttribute("rpc.connect_rpc.error_code", connectCodeName(ce.code));
      span.setStatus({ code: SpanStatusCode.ERROR, message: Code[ce.code] });
      throw error;
    } finally {
      span.end();
    }
  };
  return { interceptor, shutdown: () => provider.shutdown() };
}
