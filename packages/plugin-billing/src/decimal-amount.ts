import { Decimal } from "decimal.js";

// Costs are summed with 60 significant digits: far beyond any bill, so sums are exact.
const Exact = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_EVEN });

const decimalPattern = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The canonical text of a decimal amount: no exponent, no trailing zeros, no leading `+`
 * (`"100.0"` and `"1e2"` both become `"100"`). Equal amounts have equal text, so the store can
 * compare them as strings. Returns undefined for anything that is not a finite decimal.
 */
export function canonicalAmount(value: string | number): string | undefined {
  const text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : value;
  const plain = canonicalPlain(text);
  if (plain !== null) return plain;
  if (!decimalPattern.test(text.trim()) || text.length > 64) return undefined;
  const amount = new Exact(text.trim());
  return amount.isZero() ? "0" : amount.toFixed();
}

const zero = 48;
const nine = 57;
const minus = 45;
const point = 46;
// Digits accepted on either side of the point by the fast path; longer forms go through Decimal.
const maxPlainDigits = 40;

/**
 * The canonical text of the common `-123.4500` form (every vendor row goes through here), by
 * scanning the characters once: the same text as Decimal gives, without a regular expression or
 * a copy when the text is already canonical. Null when `text` is not of that form.
 */
function canonicalPlain(text: string): string | null {
  const length = text.length;
  let i = text.charCodeAt(0) === minus ? 1 : 0;
  const wholeStart = i;
  while (i < length && isDigit(text.charCodeAt(i))) i += 1;
  const wholeEnd = i;
  if (wholeEnd === wholeStart || wholeEnd - wholeStart > maxPlainDigits) return null;
  let end = wholeEnd;
  if (i < length) {
    if (text.charCodeAt(i) !== point) return null;
    const fractionStart = i + 1;
    i = fractionStart;
    while (i < length && isDigit(text.charCodeAt(i))) i += 1;
    if (i !== length || i - fractionStart > maxPlainDigits) return null;
    end = length;
    while (end > fractionStart && text.charCodeAt(end - 1) === zero) end -= 1;
    // Nothing left after the point: drop the point too.
    if (end === fractionStart) end = wholeEnd;
  }
  let start = wholeStart;
  while (start < wholeEnd - 1 && text.charCodeAt(start) === zero) start += 1;
  if (end === wholeEnd && start === wholeEnd - 1 && text.charCodeAt(start) === zero) return "0";
  if (start === wholeStart && end === length) return text;
  return `${wholeStart === 1 ? "-" : ""}${text.slice(start, end)}`;
}

function isDigit(code: number): boolean {
  return code >= zero && code <= nine;
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
