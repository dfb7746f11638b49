const units: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

/**
 * Parses a duration such as `90s`, `15m`, `1h` or `7d` (a bare number means seconds) into
 * whole seconds. Throws on anything else, including zero and negative values.
 */
export function secondsFromDuration(text: string): number {
  const match = /^(\d{1,9})([smhd]?)$/.exec(text.trim());
  const amount = match ? Number(match[1]) : Number.NaN;
  const unit = units[match?.[2] || "s"] ?? Number.NaN;
  const seconds = amount * unit;
  if (!Number.isSafeInteger(seconds) || seconds <= 0) {
    throw new Error(`invalid duration "${text}": use a positive number followed by s, m, h or d`);
  }
  return seconds;
}
