// Test helpers: read the repository's README.md so tests run its examples exactly as a reader would.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (where README.md, proto/ and the workspace live). */
export const repositoryRoot = fileURLToPath(new URL("../../../../", import.meta.url));

/** The address every README example talks to. */
export const readmeAddress = "127.0.0.1:8080";

/** One fenced code block of the README. */
export interface ReadmeBlock {
  /** The info string: `sh`, `ts`, `js`, `json`. */
  readonly language: string;
  /** The block's text, ending with a newline. */
  readonly text: string;
}

/** The fenced code blocks under a heading, up to the next heading of the same or a higher level. */
export function readmeBlocks(heading: string): ReadmeBlock[] {
  const readme = readFileSync(join(repositoryRoot, "README.md"), "utf8");
  const lines = readme.split("\n");
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`README.md has no heading ${JSON.stringify(heading)}`);
  const level = /^#+/.exec(heading)?.[0].length ?? 1;
  const blocks: ReadmeBlock[] = [];
  let current: { language: string; lines: string[] } | undefined;
  for (const line of lines.slice(start + 1)) {
    if (current) {
      if (line === "```") {
        blocks.push({ language: current.language, text: `${current.lines.join("\n")}\n` });
        current = undefined;
      } else {
        current.lines.push(line);
      }
      continue;
    }
    const headingLevel = /^(#+) /.exec(line)?.[1]?.length;
    if (headingLevel !== undefined && headingLevel <= level) break;
    const fence = /^```(\w*)$/.exec(line);
    if (fence) current = { language: fence[1] ?? "", lines: [] };
  }
  return blocks;
}

/** A shell command of a README block, split into words, with the comment lines that follow it. */
export interface ShellCommand {
  readonly words: string[];
  /** `# ...` lines right after the command, without the `# ` prefix. */
  readonly output: string[];
}

/**
 * The commands of an `sh` block: backslash-newline continues a line, single quotes keep their
 * content verbatim (the README uses no other quoting), `#` starts a comment.
 */
export function shellCommands(text: string): ShellCommand[] {
  const commands: { words: string[]; output: string[] }[] = [];
  const logical = text.replace(/\\\n\s*/g, " ").split("\n");
  for (const line of logical) {
    const trimmed = line.trim();
    if (trimmed === "") continue;
    if (trimmed.startsWith("#")) {
      commands.at(-1)?.output.push(trimmed.replace(/^# ?/, ""));
      continue;
    }
    commands.push({ words: shellWords(trimmed), output: [] });
  }
  return commands;
}

function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line[i] as string;
    if (char === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unterminated quote in ${line}`);
      word = (word ?? "") + line.slice(i + 1, end);
      i = end;
    } else if (char === " ") {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? "") + char;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** A `curl` command of the README as the request it sends. */
export interface CurlRequest {
  readonly method: "GET" | "POST";
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
}

/** Reads the curl options the README uses: `-s`, `-G`, `-H`, `-d`, `--data-urlencode`. */
export function curlRequest(words: string[], baseUrl: string): CurlRequest {
  if (words[0] !== "curl") throw new Error(`not a curl command: ${words.join(" ")}`);
  let get = false;
  let url: string | undefined;
  const headers: Record<string, string> = {};
  const data: string[] = [];
  const encoded: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i] as string;
    if (word === "-s") continue;
    if (word === "-G") get = true;
    else if (word === "-H") {
      const [name, ...value] = (words[++i] ?? "").split(":");
      headers[(name ?? "").trim().toLowerCase()] = value.join(":").trim();
    } else if (word === "-d") data.push(words[++i] ?? "");
    else if (word === "--data-urlencode") {
      const [name, ...value] = (words[++i] ?? "").split("=");
      encoded.push(`${name}=${encodeURIComponent(value.join("="))}`);
    } else if (word.startsWith("-")) throw new Error(`curl option ${word} is not handled`);
    else url = word.replace(`http://${readmeAddress}`, baseUrl);
  }
  if (!url) throw new Error(`curl command without URL: ${words.join(" ")}`);
  if (get) {
    return {
      method: "GET",
      url: `${url}?${[...data, ...encoded].join("&")}`,
      headers,
      body: undefined,
    };
  }
  return { method: "POST", url, headers, body: [...data, ...encoded].join("&") };
}
