import { ErrorCode } from "@costplugin/proto";
import type { HealthReport } from "@costplugin/sdk";
import { definePlugin, PluginError } from "@costplugin/sdk";
import type { FakeClock } from "@costplugin/sdk/testing";

/** What a test steers in the observability test plugin. */
export interface ObservabilityPluginControl {
  /** What the health probe answers from now on; an Error makes the probe throw it. */
  setHealth(report: HealthReport | Error): void;
  /** How often the health probe ran. */
  readonly probes: number;
  /** Resolves when a `hold` call is running. */
  held(): Promise<void>;
  /** Lets every `hold` call answer. */
  release(): void;
}

/**
 * A plugin whose every answer is chosen by the request's `sku`, for counting calls over the wire:
 * steps joined by `+` run in order. `slow:<ms>` moves the fake clock forward by that many milliseconds while the call runs (a call
 * of exactly known duration), `fail:<ERROR_CODE>` throws a `PluginError` with that code, `boom`
 * throws an unexpected error, `hold` waits until released; anything else answers at once.
 */
export function createObservabilityPlugin(clock: FakeClock) {
  let health: HealthReport | Error = { status: "serving" };
  let probes = 0;
  let holders: Array<() => void> = [];
  let heldWaiters: Array<() => void> = [];

  const behave = async (sku: string): Promise<void> => {
    for (const step of sku.split("+")) {
      const [kind = "", argument = ""] = step.split(":");
      if (kind === "slow") clock.advance(Number(argument));
      if (kind === "fail") {
        const code = ErrorCode[argument as keyof typeof ErrorCode];
        throw new PluginError(code, `failing with ${argument}`);
      }
      if (kind === "boom") throw new Error("unexpected failure in the plugin");
      if (kind === "hold") {
        const released = new Promise<void>((resolve) => holders.push(resolve));
        const waiting = heldWaiters;
        heldWaiters = [];
        for (const resolve of waiting) resolve();
        await released;
      }
    }
  };

  const control: ObservabilityPluginControl = {
    setHealth: (report) => {
      health = report;
    },
    get probes() {
      return probes;
    },
    held: () => new Promise<void>((resolve) => heldWaiters.push(resolve)),
    release: () => {
      const released = holders;
      holders = [];
      for (const resolve of released) resolve();
    },
  };

  const plugin = definePlugin({
    name: "observability-test-plugin",
    supports: () => ({ supported: true }),
    getProjectedCost: async ({ resource }) => {
      await behave(resource?.sku ?? "");
      return {
        unitPrice: 0.0104,
        currency: "USD",
        costPerMonth: 7.592,
        billingDetail: "on-demand",
      };
    },
    getPricingSpec: async ({ resource }) => {
      await behave(resource?.sku ?? "");
      return {
        spec: {
          provider: resource?.provider ?? "",
          billingMode: "per_hour",
          ratePerUnit: 0.0104,
          currency: "USD",
          description: "test price",
        },
      };
    },
    health: () => {
      probes++;
      if (health instanceof Error) throw health;
      return health;
    },
  });
  return { plugin, control };
}
