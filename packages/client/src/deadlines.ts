import type { DescMethod } from "@bufbuild/protobuf";
import { CostSourceService, ObservabilityService } from "@costplugin/proto";

/** The RPCs of costplugin.v1, by their protobuf method names. */
export type CostPluginMethodName =
  | "Name"
  | "Supports"
  | "GetProjectedCost"
  | "GetPricingSpec"
  | "GetActualCost"
  | "HealthCheck"
  | "GetMetrics"
  | "GetServiceLevelIndicators";

/**
 * Default deadline of each RPC in milliseconds, used when a call passes no `timeoutMs`. A value of
 * 0 means no deadline for that RPC. The deadline bounds the whole call, retries and their delays
 * included. A call overrides it with `{ timeoutMs }` (a value <= 0 there also means none).
 */
export type DeadlineOptions = Partial<Readonly<Record<CostPluginMethodName, number>>>;

/**
 * The default deadlines: the reference host's for CostSourceService (Name 5 s, Supports 10 s,
 * GetProjectedCost 15 s, GetPricingSpec 20 s, GetActualCost 30 s); for ObservabilityService,
 * HealthCheck 5 s (a probe that takes longer is a failed probe), GetMetrics and
 * GetServiceLevelIndicators 10 s (they read in-memory counters, but a metrics dump can be large).
 */
export const defaultDeadlines: Readonly<Record<CostPluginMethodName, number>> = Object.freeze({
  Name: 5_000,
  Supports: 10_000,
  GetProjectedCost: 15_000,
  GetPricingSpec: 20_000,
  GetActualCost: 30_000,
  HealthCheck: 5_000,
  GetMetrics: 10_000,
  GetServiceLevelIndicators: 10_000,
});

/** Resolves the deadline of each costplugin.v1 method, keyed by its full type name. */
export function resolveDeadlines(
  options: DeadlineOptions | false = {},
): ReadonlyMap<string, number> {
  const merged: Record<string, number> = { ...defaultDeadlines };
  for (const [name, value] of Object.entries(options === false ? {} : options)) {
    if (value === undefined) continue;
    if (!Object.hasOwn(defaultDeadlines, name)) {
      throw new RangeError(
        `deadlines.${name} is not a costplugin.v1 method; known: ${Object.keys(defaultDeadlines).join(", ")}`,
      );
    }
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new RangeError(`deadlines.${name} must be a number of milliseconds >= 0`);
    }
    merged[name] = value;
  }
  const byMethod = new Map<string, number>();
  if (options === false) return byMethod;
  for (const service of [CostSourceService, ObservabilityService]) {
    for (const method of service.methods) {
      const value = merged[method.name];
      if (value !== undefined && value > 0) byMethod.set(methodKey(method), value);
    }
  }
  return byMethod;
}

/** The key of a method in the map `resolveDeadlines` returns. */
export function methodKey(method: DescMethod): string {
  return `${method.parent.typeName}/${method.name}`;
}
