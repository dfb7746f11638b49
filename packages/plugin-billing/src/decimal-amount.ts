import { Decimal } from "decimal.js";

// Costs are summed with 60 significant digits: far beyond any bill, so sums are exact.
const Exact = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_EVEN });

const decimalPattern = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const plainPattern = /^(-?)(\d{1,40})(?:\.(\d{0,40}))?$/;

/**
 * The canonical text of a decimal amount: no exponent, no trailing zeros, no leading `+`
 * (`"100.0"` and `"1e2"` both become `"100"`). Equal amounts have equal text, so the store can
 * compare them as strings. Returns undefined for anything that is not a finite decimal.
 */
export function canonicalAmount(value: string | number): string | undefined {
  const text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : value;
  // Fast path for the common `123.4500` form: string surgery gives the same text as Decimal.
  const plain = plainPattern.exec(text);
  if (plain) {
    const whole = (plain[2] as string).replace(/^0+(?=\d)/, "");
    const fraction = (plain[3] ?? "").replace(/0+$/, "");
    if (whole === "0" && fraction === "") return "0";
    return `${plain[1]}${whole}${fraction === "" ? "" : `.${fraction}`}`;
  }
  if (!decimalPattern.test(text.trim()) || text.length > 64) return undefined;
  const amount = new Exact(text.trim());
  return amount.isZero() ? "0" : amount.toFixed();
}

/** The exact sum of decimal amounts given as canonical text. */
export function sumAmounts(amounts: Iterable<string>): string {
  let total = new Exact(0);
  for (const amount of amounts) total = total.plus(amount);
  return total.isZero() ? "0" : total.toFixed();
}

/** `a / b` rounded to `decimals` places (half-even), as canonical text. */
export function divideAmount(a: string, b: string | number, decimals: number): string {
  const result = new Exact(a).dividedBy(b).toDecimalPlaces(decimals);
  return result.isZero() ? "0" : result.toFixed();
}

/** `a * b` exactly, as canonical text. */
export function multiplyAmount(a: string, b: string | number): string {
  const result = new Exact(a).times(b);
  return result.isZero() ? "0" : result.toFixed();
}
