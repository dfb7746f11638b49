// Helpers shared by this package's tests: a recording plugin, a capturing logger, error decoding.
import { ConnectError } from "@connectrpc/connect";
import type { ErrorDetail } from "@costplugin/proto";
import { ErrorDetailSchema } from "@costplugin/proto";
import type { PluginLogger } from "./logger.js";
import type { CostSourcePlugin } from "./plugin.js";
import { definePlugin } from "./plugin.js";

/** A plugin implementing every method, recording which ones were reached. */
export function createRecordingPlugin(overrides: Partial<CostSourcePlugin> = {}) {
  const calls: string[] = [];
  const plugin = definePlugin({
    name: "recording",
    supports: () => {
      calls.push("supports");
      return { supported: true, reason: "" };
    },
    getProjectedCost: () => {
      calls.push("getProjectedCost");
      return {
        unitPrice: 0.0104,
        currency: "USD",
        costPerMonth: 7.592,
        billingDetail: "on-demand",
      };
    },
    getActualCost: () => {
      calls.push("getActualCost");
      return { results: [{ cost: 1.5, source: "test" }] };
    },
    getPricingSpec: () => {
      calls.push("getPricingSpec");
      return { spec: { provider: "aws", resourceType: "ec2", billingMode: "per_hour" } };
    },
    ...overrides,
  });
  return { plugin, calls };
}

/** A logger that keeps every entry, for assertions on what was (and was not) logged. */
export function createCapturingLogger() {
  const entries: Array<{ level: string; obj: Record<string, unknown>; msg?: string }> = [];
  const logger: PluginLogger = {
    error: (obj, msg) => entries.push({ level: "error", obj: obj as Record<string, unknown>, msg }),
    warn: (obj, msg) => entries.push({ level: "warn", obj: obj as Record<string, unknown>, msg }),
    info: (obj, msg) => entries.push({ level: "info", obj: obj as Record<string, unknown>, msg }),
  };
  return { logger, entries };
}

/** Awaits `call` and returns the ConnectError it rejected with (fails when it resolved). */
export async function rejectionOf(call: Promise<unknown>): Promise<ConnectError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ConnectError) return error;
    throw error;
  }
  throw new Error("expected the call to fail, but it succeeded");
}

/** The single costplugin.v1 ErrorDetail of an error (fails unless there is exactly one). */
export function onlyErrorDetail(error: ConnectError): ErrorDetail {
  const details = error.findDetails(ErrorDetailSchema);
  if (details.length !== 1 || details[0] === undefined) {
    throw new Error(`expected exactly one ErrorDetail, found ${details.length}`);
  }
  return details[0];
}
