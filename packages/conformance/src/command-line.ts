import { ConformanceOptionsError } from "./conformance-options-error.js";

/**
 * Splits a command line into program and arguments the way a POSIX shell splits words: blanks
 * separate words, single quotes keep everything literal, double quotes keep blanks and honour
 * backslash escapes. No expansion, pipes or variable assignments: the plugin is started
 * directly, so SIGTERM reaches the plugin and not a shell in between.
 */
export function splitCommandLine(text: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let index = 0; index < text.length; index++) {
    const char = text[index] as string;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
      continue;
    }
    if (char === "\\") {
      const next = text[index + 1];
      if (next === undefined) throw new ConformanceOptionsError("command ends with a backslash");
      if (quote === '"' && !['"', "\\", "$", "`"].includes(next)) word += char;
      word += next;
      inWord = true;
      index++;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = undefined;
      else word += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote !== undefined) throw new ConformanceOptionsError(`command has an unclosed ${quote}`);
  if (inWord) words.push(word);
  if (words.length === 0) throw new ConformanceOptionsError("command is empty");
  return words;
}
