import type { DescMessage, MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  GetActualCostRequest,
  GetActualCostResponseSchema,
  GetPricingSpecRequest,
  GetPricingSpecResponseSchema,
  GetProjectedCostRequest,
  GetProjectedCostResponseSchema,
  SupportsRequest,
  SupportsResponseSchema,
} from "@costplugin/proto";

/** A handler's answer: a message init object (or the message itself), now or later. */
export type Reply<Desc extends DescMessage> =
  | MessageInitShape<Desc>
  | Promise<MessageInitShape<Desc>>;

/**
 * What a plugin covers. When a plugin declares it and does not implement `supports`, the SDK
 * answers Supports from this declaration, with a reason naming what is covered.
 */
export interface PluginCoverage {
  /** Providers the plugin prices, e.g. `["aws"]`. Compared case-insensitively. */
  readonly providers: readonly string[];
  /** Resource types the plugin prices, e.g. `["ec2", "ebs"]`. Compared case-insensitively. */
  readonly resourceTypes: readonly string[];
  /** Regions the plugin prices. Omitted or empty: every region. */
  readonly regions?: readonly string[];
}

/** The plugin's own view of its health, reported by HealthCheck and the standard probes. */
export interface HealthReport {
  /** `serving` when the plugin can answer, `not_serving` when it cannot. */
  readonly status: "serving" | "not_serving";
  /** A short explanation, e.g. "billing data is 3 days old" (cut at 1024 characters). Shown to callers: no secrets. */
  readonly message?: string;
}

/**
 * A costplugin.v1 plugin: the CostSourceService implementation and nothing else.
 *
 * Requests reach the methods only after the SDK validated them (a resource with provider and
 * resource type, a time range with start before end, ...). Methods throw a `PluginError` to
 * report a failure with an ErrorCode; any other exception becomes `internal` and its message is
 * never sent to the caller. A method left out answers `unimplemented`.
 *
 * Plugins never import Fastify: dependencies (vendor client, store, clock) are passed to the
 * plugin's factory, and request-scoped data arrives through `context.values`.
 */
export interface CostSourcePlugin {
  /** The display name answered by Name. */
  readonly name: string;
  /** What the plugin covers; used to answer Supports when `supports` is not implemented. */
  readonly coverage?: PluginCoverage;
  /** Whether the described resource can be priced. */
  supports?(
    request: SupportsRequest,
    context: HandlerContext,
  ): Reply<typeof SupportsResponseSchema>;
  /** The projected cost of the described resource. */
  getProjectedCost?(
    request: GetProjectedCostRequest,
    context: HandlerContext,
  ): Reply<typeof GetProjectedCostResponseSchema>;
  /** Historical cost of `resource_id` between `start` and `end`. */
  getActualCost?(
    request: GetActualCostRequest,
    context: HandlerContext,
  ): Reply<typeof GetActualCostResponseSchema>;
  /** The pricing specification of the described resource. */
  getPricingSpec?(
    request: GetPricingSpecRequest,
    context: HandlerContext,
  ): Reply<typeof GetPricingSpecResponseSchema>;
  /**
   * The plugin's health probe, run for HealthCheck, grpc.health.v1 and the server's readiness.
   * Throwing, or not answering within `healthProbeTimeoutMs`, counts as not serving (with a safe
   * message; the error is logged). Default: always serving.
   */
  health?(): HealthReport | Promise<HealthReport>;
  /** Releases what the plugin holds (connections, files); called once on shutdown. */
  close?(): void | Promise<void>;
}

/** Identity function that gives a plugin object its type; the way to write a plugin. */
export function definePlugin<P extends CostSourcePlugin>(plugin: P): P {
  return plugin;
}
