import { mkdir, realpath, writeFile } from "node:fs/promises";
import { isAbsolute, join, normalize, relative, resolve, sep } from "node:path";
import { BadRequestError } from "../errors.js";
import type { ResponseRecord } from "../schemas/response-schemas.js";
import type { Processor } from "./processor.js";

/** Configuration of the file processor. */
export interface FileProcessorConfig {
  /** Whether tasks may use it. Default false. */
  readonly enabled: boolean;
  /** Directory relative to the processor root. Default `.` (the root itself). */
  readonly directory: string;
  /** `json` (the whole response) or `text` (the output only). Default `json`. */
  readonly format: "json" | "text";
}

/**
 * Checks a configured directory: relative, no `..` segment, no control characters. Throws a
 * 400 error otherwise; returns the normalised form.
 */
export function checkProcessorDirectory(directory: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f]/.test(directory) || isAbsolute(directory) || /^[A-Za-z]:/.test(directory)) {
    throw new BadRequestError("directory must be a relative path without control characters");
  }
  const segments = directory.split(/[\\/]+/);
  if (segments.includes(".."))
    throw new BadRequestError('directory must not contain ".." segments');
  const normal = normalize(directory === "" ? "." : directory);
  return normal;
}

/** A file name made only of safe characters from a task name. */
export function safeFileStem(name: string): string {
  const stem = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return stem === "" ? "task" : stem;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * The file processor: one file per response, named
 * `<created-at>-<task-name-slug>-<response-id>.<json|txt>`, in a directory that must stay inside
 * `root` (checked again after resolving symbolic links). Existing files are never overwritten.
 */
export function createFileProcessor(root: string): Processor<FileProcessorConfig> {
  const rootPath = resolve(root);
  return {
    type: "file",
    description: "Writes one file per response into a directory under the processor root.",
    defaults: { enabled: false, directory: ".", format: "json" },
    async process(response: ResponseRecord, config) {
      const directory = resolve(rootPath, checkProcessorDirectory(config.directory));
      if (!isInside(rootPath, directory)) throw new Error("directory escapes the processor root");
      await mkdir(directory, { recursive: true });
      const [realRoot, realDir] = await Promise.all([realpath(rootPath), realpath(directory)]);
      if (!isInside(realRoot, realDir)) throw new Error("directory escapes the processor root");
      const stamp = response.created_at.replace(/[^0-9]/g, "").slice(0, 17);
      const id = response.id.replace(/[^A-Za-z0-9-]/g, "");
      const extension = config.format === "json" ? "json" : "txt";
      const name = `${stamp}-${safeFileStem(response.task_name)}-${id}.${extension}`;
      const path = join(realDir, name);
      const body =
        config.format === "json"
          ? `${JSON.stringify(response, null, 2)}\n`
          : `${response.output ?? ""}\n`;
      try {
        await writeFile(path, body, { flag: "wx", mode: 0o640 });
      } catch (error) {
        // The same response processed again (a resumed run) keeps its first file.
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      return { detail: relative(realRoot, path), attempts: 1 };
    },
  };
}
