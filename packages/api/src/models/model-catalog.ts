import type { ModelProvidersOptions, ProviderOptions } from "../api-options.js";
import { createAnthropicProvider } from "./anthropic-provider.js";
import { createGeminiProvider } from "./gemini-provider.js";
import type { ModelProvider, ProviderName } from "./model-provider.js";
import { createOfflineProvider, offlineModelId } from "./offline-provider.js";
import { createOpenAIProvider } from "./openai-provider.js";

/** A model the API offers. */
export interface ModelInfo {
  /** `<provider>:<name>`, as used in task and test requests. */
  readonly id: string;
  /** The provider family. */
  readonly provider: ProviderName;
  /** The provider's own name of the model. */
  readonly name: string;
  /** Whether it can be called now (its provider's key is configured). */
  readonly available: boolean;
  /** Why it cannot be called, when it cannot. */
  readonly unavailable_reason: string | null;
}

/** Model names listed for a provider whose key is not configured. */
export const defaultProviderModels: Readonly<
  Record<Exclude<ProviderName, "offline">, readonly string[]>
> = {
  openai: ["gpt-4o-mini"],
  anthropic: ["claude-3-5-haiku-latest"],
  gemini: ["gemini-2.0-flash"],
};

const keyVariables: Readonly<Record<Exclude<ProviderName, "offline">, string>> = {
  openai: "COSTPLUGIN_OPENAI_API_KEY",
  anthropic: "COSTPLUGIN_ANTHROPIC_API_KEY",
  gemini: "COSTPLUGIN_GEMINI_API_KEY",
};

/** The models and the providers behind them. */
export interface ModelCatalog {
  /** Every model, available or not, offline first. */
  list(): readonly ModelInfo[];
  /** The model with `id`, or undefined. */
  get(id: string): ModelInfo | undefined;
  /** The provider of an available model, or undefined. */
  provider(id: string): ModelProvider | undefined;
}

/** Builds the catalog from the configured providers. */
export function createModelCatalog(
  options: ModelProvidersOptions,
  fetchImpl: typeof fetch,
): ModelCatalog {
  const models: ModelInfo[] = [
    {
      id: offlineModelId,
      provider: "offline",
      name: "echo",
      available: true,
      unavailable_reason: null,
    },
  ];
  const providers = new Map<ProviderName, ModelProvider>([["offline", createOfflineProvider()]]);
  const factories: Record<
    Exclude<ProviderName, "offline">,
    (o: ProviderOptions, f: typeof fetch) => ModelProvider
  > = {
    openai: createOpenAIProvider,
    anthropic: createAnthropicProvider,
    gemini: createGeminiProvider,
  };
  for (const name of ["openai", "anthropic", "gemini"] as const) {
    const configured = options[name];
    if (configured) providers.set(name, factories[name](configured, fetchImpl));
    for (const model of configured?.models ?? defaultProviderModels[name]) {
      models.push({
        id: `${name}:${model}`,
        provider: name,
        name: model,
        available: configured !== undefined,
        unavailable_reason: configured ? null : `${keyVariables[name]} is not set`,
      });
    }
  }
  const byId = new Map(models.map((m) => [m.id, m]));
  return {
    list: () => models,
    get: (id) => byId.get(id),
    provider(id) {
      const info = byId.get(id);
      return info?.available ? providers.get(info.provider) : undefined;
    },
  };
}
