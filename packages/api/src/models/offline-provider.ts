import { createHash } from "node:crypto";
import type { CompletionRequest, CompletionResult, ModelProvider } from "./model-provider.js";

/** Id of the built-in offline model. */
export const offlineModelId = "offline:echo";

function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w !== "");
}

/**
 * The built-in offline model: no network, no key, the same answer for the same input. It
 * answers with a digest of the prompt and its opening words, trimmed to `maxTokens` words, so
 * tasks, processors and statistics can be tried out before any provider is configured.
 */
export function createOfflineProvider(): ModelProvider {
  return {
    name: "offline",
    async complete(request: CompletionRequest): Promise<CompletionResult> {
      if (request.signal.aborted) throw request.signal.reason;
      const promptWords = words(`${request.system ?? ""} ${request.prompt}`);
      const digest = createHash("sha256").update(request.prompt).digest("hex").slice(0, 12);
      const opening = words(request.prompt).slice(0, 24).join(" ");
      const answer = words(`offline answer ${digest}: ${opening}`).slice(0, request.maxTokens);
      return {
        output: answer.join(" "),
        tokensIn: promptWords.length,
        tokensOut: answer.length,
      };
    },
  };
}
