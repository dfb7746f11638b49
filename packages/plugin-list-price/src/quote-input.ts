/** Longest piece of caller input echoed back in an error message or reason. */
export const MAX_ECHOED_LENGTH = 64;

/**
 * Caller input made safe to echo in a message: cut to `MAX_ECHOED_LENGTH` code points (with an
 * ellipsis when cut) and JSON-quoted, so control characters, quotes and lone surrogates arrive
 * escaped instead of breaking log lines or terminals.
 */
export function quoteInput(value: string): string {
  const codePoints = Array.from(value.slice(0, MAX_ECHOED_LENGTH * 2));
  const cut = codePoints.length > MAX_ECHOED_LENGTH || value.length > MAX_ECHOED_LENGTH * 2;
  const kept = codePoints.slice(0, MAX_ECHOED_LENGTH).join("");
  return JSON.stringify(cut ? `${kept}…` : kept);
}

/** Caller input cut to `MAX_ECHOED_LENGTH` code points, for ErrorDetail `details` values. */
export function truncateInput(value: string): string {
  const codePoints = Array.from(value.slice(0, MAX_ECHOED_LENGTH * 2));
  return codePoints.length > MAX_ECHOED_LENGTH
    ? `${codePoints.slice(0, MAX_ECHOED_LENGTH).join("")}…`
    : codePoints.join("");
}
