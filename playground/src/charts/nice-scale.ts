/**
 * A "nice" axis for values from 0 to `max`: a rounded top and evenly spaced ticks (1, 2, 2.5 or
 * 5 times a power of ten), so gridlines land on numbers a person reads at a glance.
 */
export function niceScale(max: number, tickCount = 4): { top: number; ticks: number[] } {
  if (!Number.isFinite(max) || max <= 0) return { top: 1, ticks: [0, 0.25, 0.5, 0.75, 1] };
  const rough = max / tickCount;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 2.5, 5, 10].find((factor) => factor * power >= rough) ?? 10) * power;
  const top = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  for (let tick = 0; tick <= top + step / 2; tick += step) ticks.push(Number(tick.toPrecision(12)));
  return { top, ticks };
}
