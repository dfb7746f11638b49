import type { Registry } from "prom-client";
import { Gauge } from "prom-client";
import type { BillingStore } from "./billing-store.js";

/** Options of `registerBillingMetrics`. */
export interface BillingMetricsOptions {
  /** The store read at each scrape. */
  readonly store: BillingStore;
  /** The configured source (a label). */
  readonly source: string;
  /** The clock. */
  readonly now: () => Date;
}

/**
 * Registers the plugin's own gauges on the process registry (served at `/metrics` and by
 * GetMetrics): `costplugin_billing_last_pull_age_seconds` (-1 before the first successful pull)
 * and `costplugin_billing_store_up` (1 when the store answers). Both are read at scrape time.
 */
export function registerBillingMetrics(registry: Registry, options: BillingMetricsOptions): void {
  const age = new Gauge({
    name: "costplugin_billing_last_pull_age_seconds",
    help: "Seconds since the last successful pull of the source (-1: none yet).",
    labelNames: ["source"],
    registers: [registry],
    async collect() {
      try {
        const state = await options.store.pullState(options.source);
        const seconds =
          state.lastSuccessAt === null
            ? -1
            : Math.max(0, (options.now().getTime() - Date.parse(state.lastSuccessAt)) / 1000);
        this.set({ source: options.source }, seconds);
      } catch {
        this.reset();
      }
    },
  });
  const up = new Gauge({
    name: "costplugin_billing_store_up",
    help: "1 when the billing store answers, 0 when it does not.",
    labelNames: ["source"],
    registers: [registry],
    async collect() {
      try {
        await options.store.ping();
        this.set({ source: options.source }, 1);
      } catch {
        this.set({ source: options.source }, 0);
      }
    },
  });
  void age;
  void up;
}
