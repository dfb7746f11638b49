import type { ResponseRecord } from "../schemas/response-schemas.js";
import type { Processor } from "./processor.js";

/** Configuration of the console processor. */
export interface ConsoleProcessorConfig {
  /** Whether tasks may use it. Default true. */
  readonly enabled: boolean;
  /** `text` (one summary line) or `json` (the response as one JSON line). Default `text`. */
  readonly format: "text" | "json";
}

function oneLine(text: string, max: number): string {
  // Model output is untrusted: terminal control sequences must not reach the operator's console.
  const flat = text
    .replace(/\s+/g, " ")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, "")
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * The console processor: writes each response to the process console through `write`
 * (standard error by default, because standard output carries the plugin host handshake).
 */
export function createConsoleProcessor(
  write: (line: string) => void = (line) => process.stderr.write(line),
): Processor<ConsoleProcessorConfig> {
  return {
    type: "console",
    description: "Writes each response to the server console (standard error).",
    defaults: { enabled: true, format: "text" },
    async process(response: ResponseRecord, config) {
      const line =
        config.format === "json"
          ? JSON.stringify(response)
          : `[costplugin task "${oneLine(response.task_name, 80)}" ${response.status} ${response.model_id}] ${oneLine(response.output ?? response.error ?? "", 2000)}`;
      write(`${line}\n`);
      return { detail: null, attempts: 1 };
    },
  };
}
