import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Clock } from "../clock.js";
import type { ApiDatabase } from "./schema.js";

/** One model call, for statistics. */
export interface ModelCall {
  readonly modelId: string;
  readonly purpose: "run" | "test";
  readonly ok: boolean;
  readonly tokensIn: number;
  readonly tokensOut: number;
  readonly latencyMs: number;
  readonly costEstimate: number | null;
}

/** Aggregated usage of one model. */
export interface ModelUsage {
  readonly calls: number;
  readonly errors: number;
  readonly tokens_in: number;
  readonly tokens_out: number;
  readonly average_latency_ms: number | null;
  readonly estimated_spend: number;
  readonly unpriced_calls: number;
}

/** The empty usage of a model never called. */
export const noUsage: ModelUsage = {
  calls: 0,
  errors: 0,
  tokens_in: 0,
  tokens_out: 0,
  average_latency_ms: null,
  estimated_spend: 0,
  unpriced_calls: 0,
};

/** Model call records and their statistics. */
export interface UsageStore {
  /** Records one call. */
  record(call: ModelCall): Promise<void>;
  /** Usage per model id, for every model called at least once. */
  byModel(): Promise<Map<string, ModelUsage>>;
}

/** Creates the usage store. */
export function createUsageStore(db: Kysely<ApiDatabase>, clock: Clock): UsageStore {
  return {
    async record(call) {
      await db
        .insertInto("api_model_calls")
        .values({
          id: randomUUID(),
          model_id: call.modelId,
          purpose: call.purpose,
          ok: call.ok ? 1 : 0,
          tokens_in: call.tokensIn,
          tokens_out: call.tokensOut,
          latency_ms: Math.round(call.latencyMs),
          cost_estimate: call.costEstimate,
          created_at: clock.now().toISOString(),
        })
        .execute();
    },
    async byModel() {
      const rows = await db
        .selectFrom("api_model_calls")
        .select((eb) => [
          "model_id",
          eb.fn.countAll<string | number>().as("calls"),
          eb.fn
            .sum<string | number>(eb.case().when("ok", "=", 0).then(1).else(0).end())
            .as("errors"),
          eb.fn.sum<string | number>("tokens_in").as("tokens_in"),
          eb.fn.sum<string | number>("tokens_out").as("tokens_out"),
          eb.fn.avg<string | number>("latency_ms").as("latency"),
          eb.fn.sum<string | number | null>("cost_estimate").as("spend"),
          eb.fn
            .sum<string | number>(
              eb
                .case()
                .when(eb.and([eb("ok", "=", 1), eb("cost_estimate", "is", null)]))
                .then(1)
                .else(0)
                .end(),
            )
            .as("unpriced"),
        ])
        .groupBy("model_id")
        .execute();
      return new Map(
        rows.map((r) => [
          r.model_id,
          {
            calls: Number(r.calls),
            errors: Number(r.errors),
            tokens_in: Number(r.tokens_in),
            tokens_out: Number(r.tokens_out),
            average_latency_ms: r.latency === null ? null : Math.round(Number(r.latency) * 10) / 10,
            estimated_spend: Math.round(Number(r.spend ?? 0) * 1e9) / 1e9,
            unpriced_calls: Number(r.unpriced),
          },
        ]),
      );
    },
  };
}
