import type { ProviderOptions } from "../api-options.js";
import { malformed, postJson, tokenCount } from "./http-json.js";
import type { CompletionRequest, CompletionResult, ModelProvider } from "./model-provider.js";

/**
 * An OpenAI-compatible chat completions provider (`POST {baseUrl}/chat/completions`, bearer
 * key); works with any server speaking that wire format.
 */
export function createOpenAIProvider(
  options: ProviderOptions,
  fetchImpl: typeof fetch,
): ModelProvider {
  return {
    name: "openai",
    async complete(request: CompletionRequest): Promise<CompletionResult> {
      const messages = [
        ...(request.system ? [{ role: "system", content: request.system }] : []),
        { role: "user", content: request.prompt },
      ];
      const body = (await postJson({
        provider: "openai",
        fetch: fetchImpl,
        url: `${options.baseUrl}/chat/completions`,
        headers: { authorization: `Bearer ${options.apiKey}` },
        body: {
          model: request.model,
          messages,
          max_tokens: request.maxTokens,
          ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        },
        signal: request.signal,
        secrets: [options.apiKey],
      })) as {
        choices?: Array<{ message?: { content?: unknown } }>;
        usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
      };
      const content = body?.choices?.[0]?.message?.content;
      if (typeof content !== "string") malformed("openai", "choices[0].message.content is missing");
      return {
        output: content,
        tokensIn: tokenCount(body.usage?.prompt_tokens),
        tokensOut: tokenCount(body.usage?.completion_tokens),
      };
    },
  };
}
