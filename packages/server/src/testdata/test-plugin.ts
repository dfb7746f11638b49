import type { HealthReport } from "@costplugin/sdk";
import { definePlugin, PluginError } from "@costplugin/sdk";
import { ErrorCode } from "@costplugin/proto";

/** A token value tests send and then look for in logs, errors and metrics. */
export const secretToken = "tok_5ecr3t-value-never-logged";

/** What a test can observe and steer in the test plugin. */
export interface TestPluginControl {
  /** Resolves the next time a `sku: "wait"` call is running. */
  entered(): Promise<void>;
  /** Lets every waiting `sku: "wait"` call answer. */
  release(): void;
  /** Calls currently waiting. */
  readonly waiting: number;
  /** Sets what the health probe answers. */
  setHealth(report: HealthReport): void;
  /** How often `close()` was called, and how many calls were still waiting then. */
  readonly closed: { count: number; waitingAtClose: number };
}

/**
 * A plugin whose behaviour is chosen by the request's `sku`: `wait` blocks until released or
 * aborted, `stubborn` blocks until released whatever happens,
 * `boom` throws an unexpected error, `leaky` one that carries the secret token in its fields, `limited` raises
 * RATE_LIMITED, `large` answers a 3 MB pricing description; anything else answers at once.
 */
export function createTestPlugin() {
  let waiters: Array<() => void> = [];
  let enteredWaiters: Array<() => void> = [];
  let health: HealthReport = { status: "serving" };
  const closed = { count: 0, waitingAtClose: 0 };
  const control: TestPluginControl = {
    entered: () => new Promise<void>((resolve) => enteredWaiters.push(resolve)),
    release: () => {
      const released = waiters;
      waiters = [];
      for (const resolve of released) resolve();
    },
    get waiting() {
      return waiters.length;
    },
    setHealth: (report) => {
      health = report;
    },
    closed,
  };
  const behave = async (sku: string, signal: AbortSignal) => {
    if (sku === "wait" || sku === "stubborn") {
      const done = new Promise<void>((resolve) => waiters.push(resolve));
      const entered = enteredWaiters;
      enteredWaiters = [];
      for (const resolve of entered) resolve();
      if (sku === "stubborn") {
        await done;
      } else {
        // Honour the call's signal the way a real plugin should: rethrow its reason.
        await new Promise<void>((resolve, reject) => {
          void done.then(resolve);
          signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        });
      }
    }
    if (sku === "boom") throw new Error("upstream refused the request");
    if (sku === "leaky") {
      // Shaped like an HTTP client's error: the failed request's credentials ride along.
      throw Object.assign(new Error("upstream answered 401"), {
        token: secretToken,
        config: { headers: { authorization: `Bearer ${secretToken}` } },
      });
    }
    if (sku === "limited") {
      throw new PluginError(ErrorCode.RATE_LIMITED, "vendor rate limit", { retryAfterSeconds: 7 });
    }
  };
  const plugin = definePlugin({
    name: "test-plugin",
    supports: () => ({ supported: true }),
    getProjectedCost: async (request, context) => {
      const sku = request.resource?.sku ?? "";
      await behave(sku, context.signal);
      return { unitPrice: 0.0104, currency: "USD", costPerMonth: 7.592, billingDetail: sku || "on-demand" };
    },
    getPricingSpec: async (request, context) => {
      const sku = request.resource?.sku ?? "";
      await behave(sku, context.signal);
      return {
        spec: {
          provider: request.resource?.provider ?? "",
          billingMode: "per_hour",
          ratePerUnit: 0.0104,
          currency: "USD",
          description: sku === "large" ? "x".repeat(3 * 1024 * 1024) : "test price",
        },
      };
    },
    health: () => health,
    close: () => {
      closed.count++;
      closed.waitingAtClose = waiters.length;
    },
  });
  return { plugin, control };
}
