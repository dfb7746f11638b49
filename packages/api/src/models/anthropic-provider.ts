import type { ProviderOptions } from "../api-options.js";
import { malformed, postJson, tokenCount } from "./http-json.js";
import type { CompletionRequest, CompletionResult, ModelProvider } from "./model-provider.js";

/** The Anthropic messages API version sent in `anthropic-version`. */
export const anthropicVersion = "2023-06-01";

/** An Anthropic messages provider (`POST {baseUrl}/v1/messages`, `x-api-key`). */
export function createAnthropicProvider(
  options: ProviderOptions,
  fetchImpl: typeof fetch,
): ModelProvider {
  return {
    name: "anthropic",
    async complete(request: CompletionRequest): Promise<CompletionResult> {
      const body = (await postJson({
        provider: "anthropic",
        fetch: fetchImpl,
        url: `${options.baseUrl}/v1/messages`,
        headers: { "x-api-key": options.apiKey, "anthropic-version": anthropicVersion },
        body: {
          model: request.model,
          max_tokens: request.maxTokens,
          messages: [{ role: "user", content: request.prompt }],
          ...(request.system ? { system: request.system } : {}),
          ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        },
        signal: request.signal,
        secrets: [options.apiKey],
      })) as {
        content?: Array<{ type?: unknown; text?: unknown }>;
        usage?: { input_tokens?: unknown; output_tokens?: unknown };
      };
      if (!Array.isArray(body?.content)) malformed("anthropic", "content is missing");
      const text = body.content
        .filter((block) => block?.type === "text" && typeof block.text === "string")
        .map((block) => block.text as string)
        .join("");
      return {
        output: text,
        tokensIn: tokenCount(body.usage?.input_tokens),
        tokensOut: tokenCount(body.usage?.output_tokens),
      };
    },
  };
}
