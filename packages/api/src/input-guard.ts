import { BadRequestError } from "./errors.js";

/** Deepest nesting of arrays and objects accepted anywhere in a request. */
export const maxInputDepth = 32;

function inspect(value: unknown, path: string, depth: number): string | undefined {
  if (typeof value === "string") {
    return value.includes("\u0000") ? `${path || "/"} must not contain NUL characters` : undefined;
  }
  if (value === null || typeof value !== "object") return undefined;
  if (depth >= maxInputDepth) {
    return `${path || "/"} is nested deeper than ${maxInputDepth} levels`;
  }
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes("\u0000")) {
      return `${path}/${key.replaceAll("\u0000", "\\u0000")} must not contain NUL characters`;
    }
    const found = inspect(inner, `${path}/${key}`, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Throws a 400 error when any string (or key) in `parts` holds a NUL character (PostgreSQL text
 * cannot store one, and no field of the API has a use for it) or when a value is nested deeper
 * than `maxInputDepth` (storing or rendering it would exhaust the stack).
 */
export function refuseHostileInput(parts: Readonly<Record<string, unknown>>): void {
  for (const [part, value] of Object.entries(parts)) {
    const problem = inspect(value, "", 0);
    if (problem !== undefined) throw new BadRequestError(`${part}${problem}`);
  }
}
