/** A copy of `options` without the keys whose value is `undefined` (so defaults apply). */
export function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}

/** Throws a RangeError naming the option when `value` is not a number in `[min, max]`. */
export function requireNumber(
  name: string,
  value: number,
  min: number,
  max: number,
  integer: boolean,
): void {
  const valid =
    typeof value === "number" &&
    Number.isFinite(value) &&
    value >= min &&
    value <= max &&
    (!integer || Number.isInteger(value));
  if (!valid) {
    throw new RangeError(
      `${name} must be ${integer ? "an integer" : "a number"} between ${min} and ${max}, got ${String(value)}`,
    );
  }
}
