import { BadRequestError } from "./errors.js";

function findNul(value: unknown, path: string, depth: number): string | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path || "/" : undefined;
  if (depth > 64 || value === null || typeof value !== "object") return undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes("\u0000")) return `${path}/${key.replaceAll("\u0000", "\\u0000")}`;
    const found = findNul(inner, `${path}/${key}`, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Throws a 400 error when any string (or key) in `parts` holds a NUL character: PostgreSQL text
 * cannot store one, and no field of the API has a use for it.
 */
export function refuseNulCharacters(parts: Readonly<Record<string, unknown>>): void {
  for (const [part, value] of Object.entries(parts)) {
    const path = findNul(value, "", 0);
    if (path !== undefined)
      throw new BadRequestError(`${part}${path} must not contain NUL characters`);
  }
}
