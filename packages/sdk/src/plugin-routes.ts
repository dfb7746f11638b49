import { create } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import {
  CostSourceService,
  HealthCheckResponse_Status,
  HealthCheckResponseSchema,
  ObservabilityService,
} from "@costplugin/proto";
import type { CostSourcePlugin } from "./plugin.js";
import { connectErrorFromPluginError, PluginError } from "./plugin-error.js";

/** The minimal logger the SDK needs; pino and Fastify's logger satisfy it. */
export interface PluginLogger {
  error(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
}

/** Options of `createPluginRoutes`. */
export interface PluginRoutesOptions {
  /** Where unexpected plugin exceptions are logged with their stack. Default: stderr JSON. */
  readonly logger?: PluginLogger;
}

/**
 * Registers the plugin's CostSourceService and the ObservabilityService on a Connect router.
 * The result is what connect-fastify, connect-node and `createRouterTransport` take as `routes`.
 */
export function createPluginRoutes(
  plugin: CostSourcePlugin,
  options: PluginRoutesOptions = {},
): (router: ConnectRouter) => void {
  const logger = options.logger ?? stderrLogger;
  const guard = async <T>(method: string, run: () => T | Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw connectErrorFromUnknown(error, method, logger);
    }
  };
  const unimplemented = (method: string) =>
    new ConnectError(`${method} is not offered by plugin "${plugin.name}"`, Code.Unimplemented);
  return (router) => {
    router.service(CostSourceService, {
      name: () => ({ name: plugin.name }),
      supports: (req, ctx) =>
        guard("Supports", () => {
          if (!plugin.supports) throw unimplemented("Supports");
          return plugin.supports(req, ctx);
        }),
      getProjectedCost: (req, ctx) =>
        guard("GetProjectedCost", () => {
          if (!plugin.getProjectedCost) throw unimplemented("GetProjectedCost");
          return plugin.getProjectedCost(req, ctx);
        }),
      getActualCost: (req, ctx) =>
        guard("GetActualCost", () => {
          if (!plugin.getActualCost) throw unimplemented("GetActualCost");
          return plugin.getActualCost(req, ctx);
        }),
      getPricingSpec: (req, ctx) =>
        guard("GetPricingSpec", () => {
          if (!plugin.getPricingSpec) throw unimplemented("GetPricingSpec");
          return plugin.getPricingSpec(req, ctx);
        }),
    });
    router.service(ObservabilityService, {
      healthCheck: () =>
        guard("HealthCheck", async () => {
          const report = (await plugin.health?.()) ?? { status: "serving" };
          return create(HealthCheckResponseSchema, {
            status:
              report.status === "serving"
                ? HealthCheckResponse_Status.SERVING
                : HealthCheckResponse_Status.NOT_SERVING,
            message: report.message ?? "",
            lastCheckTime: timestampNow(),
          });
        }),
    });
  };
}

/** Maps whatever a plugin threw to the ConnectError the caller sees; nothing else invents codes. */
function connectErrorFromUnknown(
  error: unknown,
  method: string,
  logger: PluginLogger,
): ConnectError {
  if (error instanceof PluginError) return connectErrorFromPluginError(error);
  if (error instanceof ConnectError) return error;
  logger.error({ err: error, method }, "plugin method failed unexpectedly");
  return new ConnectError("internal error", Code.Internal);
}

const stderrLogger: PluginLogger = {
  error: (obj, msg) =>
    process.stderr.write(`${JSON.stringify({ level: "error", msg, ...serialize(obj) })}\n`),
  warn: (obj, msg) =>
    process.stderr.write(`${JSON.stringify({ level: "warn", msg, ...serialize(obj) })}\n`),
  info: (obj, msg) =>
    process.stderr.write(`${JSON.stringify({ level: "info", msg, ...serialize(obj) })}\n`),
};

function serialize(obj: object): object {
  const err = (obj as { err?: unknown }).err;
  return err instanceof Error ? { ...obj, err: { message: err.message, stack: err.stack } } : obj;
}
