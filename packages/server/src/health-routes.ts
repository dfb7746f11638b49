import type { Observability } from "@costplugin/sdk";
import type { FastifyInstance } from "fastify";

/** Options of `registerHealthRoutes`. */
export interface HealthRoutesOptions {
  /** Serve `/metrics`; false leaves it unrouted (the server's `metrics: false`). */
  readonly metrics: boolean;
}

/**
 * The operator routes: `/metrics` (Prometheus text from the observability registry, the same
 * numbers GetMetrics reports; unless metrics are off), `/healthz` (liveness: the process answers)
 * and `/readyz` (readiness: the plugin's health probe; 503 when it is not serving or the server
 * is closing).
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  observability: Observability,
  options: HealthRoutesOptions,
): void {
  if (options.metrics) {
    app.get("/metrics", async (_request, reply) => {
      const text = await observability.registry.metrics();
      return reply.type(observability.registry.contentType).send(text);
    });
  }
  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (_request, reply) => {
    const health = await observability.health();
    const serving = health.status === "serving";
    return reply.code(serving ? 200 : 503).send({
      status: health.status,
      ...(health.message ? { message: health.message } : {}),
    });
  });
}
