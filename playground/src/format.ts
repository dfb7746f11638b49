/**
 * Formats an amount of money in the reader's locale. `maxDigits` keeps small unit prices such as
 * 0.0104 readable; an unknown or empty currency code falls back to the plain number and code.
 */
export function formatMoney(amount: number, currency: string, maxDigits = 2): string {
  if (!Number.isFinite(amount)) return `${amount} ${currency}`.trim();
  const digits = { minimumFractionDigits: 2, maximumFractionDigits: Math.max(2, maxDigits) };
  if (/^[A-Z]{3}$/.test(currency)) {
    try {
      return new Intl.NumberFormat(undefined, { style: "currency", currency, ...digits }).format(
        amount,
      );
    } catch {
      // An ISO-looking code the runtime does not know: show it plainly below.
    }
  }
  return `${new Intl.NumberFormat(undefined, digits).format(amount)} ${currency}`.trim();
}

/** A plain number with `minDigits` to `maxDigits` decimals, in the reader's locale. */
export function formatNumber(value: number, maxDigits = 2, minDigits = 0): string {
  return new Intl.NumberFormat(undefined, {
    minimumFractionDigits: Math.min(minDigits, maxDigits),
    maximumFractionDigits: maxDigits,
  }).format(value);
}

/** A latency, e.g. `3.2 ms` or `1.40 s`. */
export function formatLatency(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;
}

/** A time of day in the reader's locale with seconds, e.g. `14:03:07`. */
export function formatClock(date: Date): string {
  return date.toLocaleTimeString(undefined, {
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
}

/** A UTC day label for charts and tables, e.g. `Mar 4`. */
export function formatDay(date: Date): string {
  return date.toLocaleDateString(undefined, { month: "short", day: "numeric", timeZone: "UTC" });
}
