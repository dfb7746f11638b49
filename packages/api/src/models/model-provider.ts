/** What a provider is asked to do: one prompt, one answer. */
export interface CompletionRequest {
  /** The provider's own model name (without the `provider:` prefix). */
  readonly model: string;
  /** The rendered prompt, sent as the user message. */
  readonly prompt: string;
  /** System message; omitted when empty. */
  readonly system?: string;
  /** Sampling temperature; the provider's default when absent. */
  readonly temperature?: number;
  /** Upper bound of output tokens. */
  readonly maxTokens: number;
  /** Aborts the call (time-out or shutdown). */
  readonly signal: AbortSignal;
}

/** A provider's answer. */
export interface CompletionResult {
  /** The generated text. */
  readonly output: string;
  /** Input tokens as counted by the provider. */
  readonly tokensIn: number;
  /** Output tokens as counted by the provider. */
  readonly tokensOut: number;
}

/** The provider families the API speaks. */
export type ProviderName = "offline" | "openai" | "anthropic" | "gemini";

/** A model provider: one wire format behind one method. */
export interface ModelProvider {
  /** The family, also the prefix of its model ids. */
  readonly name: ProviderName;
  /** Runs one completion; throws `ModelCallError` on failure. */
  complete(request: CompletionRequest): Promise<CompletionResult>;
}

/**
 * A failed model call. `transient` failures (time-outs, network errors, 408, 429, 5xx) are
 * retried with backoff; others (bad request, wrong key, malformed answer) are not.
 */
export class ModelCallError extends Error {
  /** Whether trying again may succeed. */
  readonly transient: boolean;
  /** The provider's HTTP status, when it answered. */
  readonly status: number | undefined;

  constructor(message: string, options: { transient: boolean; status?: number; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = "ModelCallError";
    this.transient = options.transient;
    this.status = options.status;
  }
}
