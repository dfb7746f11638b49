import type { ProviderId } from "./catalogue-schema.js";

/** Every accepted spelling of each provider (lower case), canonical name first. */
export const providerAliases: Readonly<Record<ProviderId, readonly string[]>> = {
  aws: ["aws", "amazon"],
  azure: ["azure", "azurerm", "azure-native"],
  gcp: ["gcp", "google", "google-beta"],
};

const byAlias = new Map<string, ProviderId>(
  (Object.entries(providerAliases) as [ProviderId, readonly string[]][]).flatMap(
    ([provider, aliases]) => aliases.map((alias) => [alias, provider] as const),
  ),
);

/** The canonical provider for a spelling such as `AWS`, `azurerm` or `google`; case-insensitive. */
export function providerFromInput(input: string): ProviderId | undefined {
  return byAlias.get(input.trim().toLowerCase());
}

/**
 * "aws (also amazon), azure (also azurerm, azure-native), ..." for messages, limited to
 * `providers` (default: all).
 */
export function describeKnownProviders(
  providers: readonly ProviderId[] = Object.keys(providerAliases) as ProviderId[],
): string {
  return providers
    .map((provider) => {
      const others = providerAliases[provider].filter((alias) => alias !== provider);
      return others.length > 0 ? `${provider} (also ${others.join(", ")})` : provider;
    })
    .join(", ");
}
