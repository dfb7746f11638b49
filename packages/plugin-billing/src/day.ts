const dayMs = 86_400_000;

/** The UTC day (`YYYY-MM-DD`) of an instant. */
export function dayOf(instant: Date | number): string {
  return new Date(instant).toISOString().slice(0, 10);
}

/** `day` moved by `delta` days. */
export function addDays(day: string, delta: number): string {
  return dayOf(Date.parse(`${day}T00:00:00Z`) + delta * dayMs);
}

/** Days from `from` to `to`, both included (0 when `to` is before `from`). */
export function daysBetween(from: string, to: string): number {
  return Math.max(
    0,
    Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / dayMs) + 1,
  );
}

/** True for a real calendar day written `YYYY-MM-DD`. */
export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const time = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(time) && dayOf(time) === text;
}

/** Milliseconds since the epoch of 00:00 UTC of `day`. */
export function dayStartMs(day: string): number {
  return Date.parse(`${day}T00:00:00Z`);
}

/** The earlier of two days. */
export function minDay(a: string, b: string): string {
  return a < b ? a : b;
}

const epochDays = new Map<string, number>();

/** Days from 1970-01-01 to `day` (`YYYY-MM-DD`); remembered, since rows repeat few days. */
export function epochDay(day: string): number {
  let n = epochDays.get(day);
  if (n === undefined) {
    n = Math.round(dayStartMs(day) / dayMs);
    if (epochDays.size >= 10_000) epochDays.clear();
    epochDays.set(day, n);
  }
  return n;
}
