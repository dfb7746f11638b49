import type { ConnectRouter } from "@connectrpc/connect";
import { CostSourceService, ObservabilityService } from "@costplugin/proto";
import { Health } from "@costplugin/proto/grpc-health";
import { createCostSourceService } from "./cost-source-service.js";
import { createGrpcHealthService } from "./grpc-health-service.js";
import type { PluginLogger } from "./logger.js";
import { stderrLogger } from "./logger.js";
import type { Observability } from "./observability.js";
import { createObservability } from "./observability.js";
import { createObservabilityService } from "./observability-service.js";
import type { CostSourcePlugin } from "./plugin.js";
import type { RequestLimits } from "./request-limits.js";
import { defaultMaxActualCostSpanDays, resolveRequestLimits } from "./request-limits.js";

export type { PluginLogger } from "./logger.js";

/** Options of `createPluginRoutes`. */
export interface PluginRoutesOptions {
  /** Where unexpected plugin exceptions are logged with their stack. Default: stderr JSON. */
  readonly logger?: PluginLogger;
  /**
   * The process's measurements. The server passes the instance whose `interceptor` it installs
   * and whose `registry` it serves at `/metrics`. Default: a new instance (whose interceptor then
   * nobody installs unless the caller reads it from the returned routes).
   */
  readonly observability?: Observability;
  /** Size limits of request fields; missing fields take `defaultRequestLimits`. */
  readonly limits?: Partial<RequestLimits>;
  /**
   * Longest GetActualCost range in days; a longer one is INVALID_TIME_RANGE. Default 366
   * (a leap year of daily buckets).
   */
  readonly maxActualCostSpanDays?: number;
  /** How often grpc.health.v1 Watch runs the health probe, in milliseconds. Default 5000. */
  readonly healthWatchIntervalMs?: number;
}

/** What `createPluginRoutes` returns: Connect routes that also expose their observability. */
export type PluginRoutes = ((router: ConnectRouter) => void) & {
  /** The observability the routes answer from (the one passed in, or the one created). */
  readonly observability: Observability;
};

/**
 * Registers the plugin's costplugin.v1 CostSourceService, the ObservabilityService and the
 * standard grpc.health.v1.Health service on a Connect router, and installs the plugin's health
 * probe on the observability. The result is what connect-fastify, connect-node and
 * `createRouterTransport` take as `routes`. Invalid options throw at once.
 */
export function createPluginRoutes(
  plugin: CostSourcePlugin,
  options: PluginRoutesOptions = {},
): PluginRoutes {
  const logger = options.logger ?? stderrLogger;
  const limits = resolveRequestLimits(options.limits);
  const maxActualCostSpanDays = options.maxActualCostSpanDays ?? defaultMaxActualCostSpanDays;
  if (!(Number.isFinite(maxActualCostSpanDays) && maxActualCostSpanDays > 0)) {
    throw new RangeError(
      `maxActualCostSpanDays must be a positive number, got ${String(maxActualCostSpanDays)}`,
    );
  }
  const watchIntervalMs = options.healthWatchIntervalMs ?? 5000;
  if (!(Number.isFinite(watchIntervalMs) && watchIntervalMs > 0)) {
    throw new RangeError(
      `healthWatchIntervalMs must be a positive number, got ${String(watchIntervalMs)}`,
    );
  }
  const observability = options.observability ?? createObservability({ logger });
  observability.setHealthProbe(plugin.health ? () => plugin.health?.() ?? serving : undefined);

  const routes = (router: ConnectRouter) => {
    router.service(
      CostSourceService,
      createCostSourceService(plugin, { logger, limits, maxActualCostSpanDays }),
    );
    router.service(ObservabilityService, createObservabilityService({ observability, logger }));
    router.service(Health, createGrpcHealthService({ observability, watchIntervalMs }));
  };
  return Object.assign(routes, { observability });
}

const serving = { status: "serving" } as const;
