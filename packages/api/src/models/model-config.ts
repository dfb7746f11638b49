/** The stored configuration of one model (`GET|PUT /models/:id/config`). */
export interface ModelConfig {
  /** Sampling temperature 0..2; null keeps the provider's default. Default null. */
  readonly temperature: number | null;
  /** Upper bound of output tokens. Default 1024. */
  readonly max_tokens: number;
  /** System message sent with every prompt; empty sends none. Default empty. */
  readonly system_message: string;
  /** Time-out of one call in milliseconds. Default 30000. */
  readonly timeout_ms: number;
  /** Model tried once this one has failed (after its retries); null for none. Default null. */
  readonly fallback_model_id: string | null;
  /** Price of one million input tokens (USD) for spend estimates; null when unknown. */
  readonly input_price_per_million: number | null;
  /** Price of one million output tokens (USD) for spend estimates; null when unknown. */
  readonly output_price_per_million: number | null;
}

/** The configuration of a model nobody has configured. */
export const defaultModelConfig: ModelConfig = {
  temperature: null,
  max_tokens: 1024,
  system_message: "",
  timeout_ms: 30_000,
  fallback_model_id: null,
  input_price_per_million: null,
  output_price_per_million: null,
};

/** The offline model costs nothing. */
export const offlineModelConfig: ModelConfig = {
  ...defaultModelConfig,
  input_price_per_million: 0,
  output_price_per_million: 0,
};

/**
 * Estimated spend of a call from the configured prices, rounded to 1e-9 USD; null when a needed
 * price is unknown.
 */
export function estimateCost(
  config: ModelConfig,
  tokensIn: number,
  tokensOut: number,
): number | null {
  const { input_price_per_million: inPrice, output_price_per_million: outPrice } = config;
  if ((tokensIn > 0 && inPrice === null) || (tokensOut > 0 && outPrice === null)) return null;
  const cost = (tokensIn * (inPrice ?? 0) + tokensOut * (outPrice ?? 0)) / 1_000_000;
  return Math.round(cost * 1e9) / 1e9;
}
