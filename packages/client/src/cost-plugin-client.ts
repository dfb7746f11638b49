import type { Client, Transport } from "@connectrpc/connect";
import { createClient } from "@connectrpc/connect";
import { CostSourceService, ObservabilityService } from "@costplugin/proto";
import type { CostPluginTransportOptions } from "./cost-plugin-transport.js";
import { createCostPluginTransport } from "./cost-plugin-transport.js";
import type { ResilienceOptions } from "./resilient-transport.js";
import { createResilientTransport } from "./resilient-transport.js";

/** Clients for both costplugin.v1 services of one plugin, sharing one transport and breaker. */
export interface CostPluginClient {
  /** The plugin's CostSourceService: Name, Supports, GetProjectedCost, GetActualCost, GetPricingSpec. */
  readonly costSource: Client<typeof CostSourceService>;
  /** The plugin's ObservabilityService: HealthCheck, GetMetrics, GetServiceLevelIndicators. */
  readonly observability: Client<typeof ObservabilityService>;
}

/** Options of `createCostPluginClient`: where and how to connect, and the resilience to apply. */
export interface CostPluginClientOptions extends CostPluginTransportOptions, ResilienceOptions {}

/**
 * A browser-safe client for a costplugin.v1 plugin, with default per-RPC deadlines, retries of
 * transient failures and a circuit breaker applied inside (see `ResilienceOptions`). Options are
 * checked here, once: a bad value throws a RangeError.
 */
export function createCostPluginClient(options: CostPluginClientOptions): CostPluginClient {
  return costPluginClientFromTransport(
    createResilientTransport(createCostPluginTransport(options), options),
  );
}

/** Both service clients over one (already resilient or not) transport. */
export function costPluginClientFromTransport(transport: Transport): CostPluginClient {
  return {
    costSource: createClient(CostSourceService, transport),
    observability: createClient(ObservabilityService, transport),
  };
}
