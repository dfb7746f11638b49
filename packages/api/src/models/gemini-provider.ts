import type { ProviderOptions } from "../api-options.js";
import { malformed, postJson, tokenCount } from "./http-json.js";
import type { CompletionRequest, CompletionResult, ModelProvider } from "./model-provider.js";

/**
 * A Google Gemini provider (`POST {baseUrl}/v1beta/models/{model}:generateContent`,
 * `x-goog-api-key`, so the key never appears in a URL).
 */
export function createGeminiProvider(
  options: ProviderOptions,
  fetchImpl: typeof fetch,
): ModelProvider {
  return {
    name: "gemini",
    async complete(request: CompletionRequest): Promise<CompletionResult> {
      const body = (await postJson({
        provider: "gemini",
        fetch: fetchImpl,
        url: `${options.baseUrl}/v1beta/models/${encodeURIComponent(request.model)}:generateContent`,
        headers: { "x-goog-api-key": options.apiKey },
        body: {
          contents: [{ role: "user", parts: [{ text: request.prompt }] }],
          ...(request.system ? { systemInstruction: { parts: [{ text: request.system }] } } : {}),
          generationConfig: {
            maxOutputTokens: request.maxTokens,
            ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
          },
        },
        signal: request.signal,
        secrets: [options.apiKey],
      })) as {
        candidates?: Array<{ content?: { parts?: Array<{ text?: unknown }> } }>;
        usageMetadata?: { promptTokenCount?: unknown; candidatesTokenCount?: unknown };
      };
      const parts = body?.candidates?.[0]?.content?.parts;
      if (!Array.isArray(parts)) malformed("gemini", "candidates[0].content.parts is missing");
      return {
        output: parts.map((p) => (typeof p?.text === "string" ? p.text : "")).join(""),
        tokensIn: tokenCount(body.usageMetadata?.promptTokenCount),
        tokensOut: tokenCount(body.usageMetadata?.candidatesTokenCount),
      };
    },
  };
}
