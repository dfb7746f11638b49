import { performance } from "node:perf_hooks";
import type { RetryOptions } from "../api-options.js";
import { withRetry } from "../retry.js";
import type { SettingsStore } from "../store/settings-store.js";
import type { UsageStore } from "../store/usage-store.js";
import type { ModelCatalog } from "./model-catalog.js";
import {
  defaultModelConfig,
  estimateCost,
  type ModelConfig,
  offlineModelConfig,
} from "./model-config.js";
import { ModelCallError } from "./model-provider.js";
import { offlineModelId } from "./offline-provider.js";

/** What an invocation produced, success or failure. */
export interface InvokeResult {
  readonly status: "succeeded" | "failed";
  /** The model that produced the outcome (the fallback when it was used). */
  readonly model_id: string;
  readonly output: string | null;
  /** Every failure on the way, joined; null on success without fallback. */
  readonly error: string | null;
  readonly tokens_in: number;
  readonly tokens_out: number;
  readonly latency_ms: number;
  readonly cost_estimate: number | null;
  /** Calls made in total, retries and fallback included. */
  readonly attempts: number;
}

/** Calls models with their configuration, retries, fallback and usage recording. */
export interface ModelInvoker {
  /** The configuration of a model (stored, or the default). */
  config(modelId: string): Promise<ModelConfig>;
  /** Runs `prompt` on `modelId`; never throws for model failures, returns them. */
  invoke(modelId: string, prompt: string, purpose: "run" | "test"): Promise<InvokeResult>;
  /**
   * The longest `invoke` can take with the current configuration, in milliseconds: every
   * attempt of the model and of its fallback timing out, every backoff at its longest.
   */
  longestInvokeMs(modelId: string): Promise<number>;
}

/** Options of `createModelInvoker`. */
export interface ModelInvokerOptions {
  readonly catalog: ModelCatalog;
  readonly settings: SettingsStore;
  readonly usage: UsageStore;
  readonly retry: RetryOptions;
}

/** Creates the model invoker. */
export function createModelInvoker(options: ModelInvokerOptions): ModelInvoker {
  const { catalog, settings, usage } = options;

  async function config(modelId: string): Promise<ModelConfig> {
    const base = modelId === offlineModelId ? offlineModelConfig : defaultModelConfig;
    const stored = await settings.model<Partial<ModelConfig>>(modelId);
    return { ...base, ...stored?.config };
  }

  async function once(modelId: string, prompt: string, purpose: "run" | "test") {
    const cfg = await config(modelId);
    const info = catalog.get(modelId);
    const provider = catalog.provider(modelId);
    let attempts = 0;
    const started = performance.now();
    if (!info || !provider) {
      const reason = info ? (info.unavailable_reason ?? "unavailable") : "unknown model";
      return {
        ok: false as const,
        error: `model ${modelId} cannot be called: ${reason}`,
        attempts,
        latency: 0,
        cfg,
      };
    }
    try {
      const result = await withRetry(
        options.retry,
        (error) => error instanceof ModelCallError && error.transient,
        async () => {
          attempts++;
          const t0 = performance.now();
          try {
            const r = await provider.complete({
              model: info.name,
              prompt,
              system: cfg.system_message || undefined,
              temperature: cfg.temperature ?? undefined,
              maxTokens: cfg.max_tokens,
              signal: AbortSignal.timeout(cfg.timeout_ms),
            });
            await usage.record({
              modelId,
              purpose,
              ok: true,
              tokensIn: r.tokensIn,
              tokensOut: r.tokensOut,
              latencyMs: performance.now() - t0,
              costEstimate: estimateCost(cfg, r.tokensIn, r.tokensOut),
            });
            return r;
          } catch (error) {
            await usage.record({
              modelId,
              purpose,
              ok: false,
              tokensIn: 0,
              tokensOut: 0,
              latencyMs: performance.now() - t0,
              costEstimate: null,
            });
            if (error instanceof ModelCallError) throw error;
            throw new ModelCallError(
              `${info.provider} call failed: ${(error as Error)?.message ?? String(error)}`,
              {
                transient: false,
                cause: error,
              },
            );
          }
        },
      );
      return { ok: true as const, result, attempts, latency: performance.now() - started, cfg };
    } catch (error) {
      return {
        ok: false as const,
        error: `${(error as Error).message}${attempts > 1 ? ` (after ${attempts} attempts)` : ""}`,
        attempts,
        latency: performance.now() - started,
        cfg,
      };
    }
  }

  function longestCallsMs(cfg: ModelConfig): number {
    const attempts = Math.max(1, options.retry.maxAttempts);
    return attempts * cfg.timeout_ms + (attempts - 1) * options.retry.maxDelayMs;
  }

  return {
    config,
    async longestInvokeMs(modelId) {
      const cfg = await config(modelId);
      const fallback = cfg.fallback_model_id;
      const second = fallback && fallback !== modelId ? longestCallsMs(await config(fallback)) : 0;
      return longestCallsMs(cfg) + second;
    },
    async invoke(modelId, prompt, purpose) {
      const first = await once(modelId, prompt, purpose);
      if (first.ok) {
        return {
          status: "succeeded",
          model_id: modelId,
          output: first.result.output,
          error: null,
          tokens_in: first.result.tokensIn,
          tokens_out: first.result.tokensOut,
          latency_ms: Math.round(first.latency),
          cost_estimate: estimateCost(first.cfg, first.result.tokensIn, first.result.tokensOut),
          attempts: first.attempts,
        };
      }
      const fallback = first.cfg.fallback_model_id;
      if (fallback && fallback !== modelId) {
        const second = await once(fallback, prompt, purpose);
        if (second.ok) {
          return {
            status: "succeeded",
            model_id: fallback,
            output: second.result.output,
            error: `${modelId}: ${first.error}; answered by fallback ${fallback}`,
            tokens_in: second.result.tokensIn,
            tokens_out: second.result.tokensOut,
            latency_ms: Math.round(first.latency + second.latency),
            cost_estimate: estimateCost(
              second.cfg,
              second.result.tokensIn,
              second.result.tokensOut,
            ),
            attempts: first.attempts + second.attempts,
          };
        }
        return failed(
          modelId,
          `${first.error}; fallback ${fallback}: ${second.error}`,
          first.attempts + second.attempts,
          first.latency + second.latency,
        );
      }
      return failed(modelId, first.error, first.attempts, first.latency);
    },
  };
}

function failed(modelId: string, error: string, attempts: number, latency: number): InvokeResult {
  return {
    status: "failed",
    model_id: modelId,
    output: null,
    error,
    tokens_in: 0,
    tokens_out: 0,
    latency_ms: Math.round(latency),
    cost_estimate: null,
    attempts,
  };
}
