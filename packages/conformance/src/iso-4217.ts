// Codes introduced recently enough to be missing from the ICU data of some Node releases.
const recentCodes = ["SLE", "VED", "VES", "ZWG", "XCG"];

let known: ReadonlySet<string> | undefined;

/**
 * Whether `code` is an active ISO 4217 currency code (three upper-case letters known to the
 * runtime's ICU data, plus a few recent ones). `XXX` (no currency) and test codes are refused.
 */
export function isIso4217Code(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  known ??= new Set([...Intl.supportedValuesOf("currency"), ...recentCodes]);
  return known.has(code);
}
