import type { Client, Interceptor } from "@connectrpc/connect";
import { createClient, createRouterTransport } from "@connectrpc/connect";
import { CostSourceService, ObservabilityService } from "@costplugin/proto";
import { Health } from "@costplugin/proto/grpc-health";
import type { Observability } from "./observability.js";
import type { CostSourcePlugin } from "./plugin.js";
import type { PluginRoutesOptions } from "./plugin-routes.js";
import { createPluginRoutes } from "./plugin-routes.js";

export type { FakeClock } from "./fake-clock.js";
export { createFakeClock } from "./fake-clock.js";

/** Options of `createTestClient`: those of `createPluginRoutes`, plus extra interceptors. */
export interface TestClientOptions extends PluginRoutesOptions {
  /** Server-side interceptors installed after the observability interceptor. */
  readonly interceptors?: readonly Interceptor[];
}

/** In-memory clients of every service a plugin serves, and the observability behind them. */
export interface TestClient {
  /** costplugin.v1.CostSourceService. */
  readonly costSource: Client<typeof CostSourceService>;
  /** costplugin.v1.ObservabilityService. */
  readonly observability: Client<typeof ObservabilityService>;
  /** The standard grpc.health.v1.Health service. */
  readonly health: Client<typeof Health>;
  /** The Observability instance the routes answer from (registry, health, SLIs). */
  readonly telemetry: Observability;
}

/**
 * Serves a plugin in memory (Connect's router transport, no sockets) with exactly the routes and
 * the observability interceptor a server installs, so a plugin's tests see what a caller on the
 * wire would: validation, error mapping with ErrorDetail, metrics and health.
 */
export function createTestClient(
  plugin: CostSourcePlugin,
  options: TestClientOptions = {},
): TestClient {
  const { interceptors = [], ...routeOptions } = options;
  const routes = createPluginRoutes(plugin, routeOptions);
  const transport = createRouterTransport(routes, {
    router: { interceptors: [routes.observability.interceptor, ...interceptors] },
  });
  return {
    costSource: createClient(CostSourceService, transport),
    observability: createClient(ObservabilityService, transport),
    health: createClient(Health, transport),
    telemetry: routes.observability,
  };
}
