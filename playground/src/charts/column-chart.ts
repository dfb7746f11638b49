import { s } from "../dom.js";
import { niceScale } from "./nice-scale.js";

/** One column of a column chart. */
export interface ColumnPoint {
  /** Axis label, e.g. "Mar 4". */
  readonly label: string;
  readonly value: number;
  /** Tooltip and accessible text of the column. */
  readonly title: string;
}

/** Options of `columnChart`. */
export interface ColumnChartOptions {
  readonly points: readonly ColumnPoint[];
  /** Accessible name of the whole chart. */
  readonly label: string;
  /** Formats axis tick values. */
  readonly formatTick: (value: number) => string;
  /** Drawing width in SVG units; the chart scales to its container. Default 640. */
  readonly width?: number;
  /** Drawing height in SVG units. Default 220. */
  readonly height?: number;
}

/**
 * A hand-drawn SVG column chart (e.g. daily actual costs): gridlines on a nice scale, one column
 * per point with a tooltip, and at most about ten x labels whatever the number of points.
 */
export function columnChart(options: ColumnChartOptions): SVGSVGElement {
  const width = options.width ?? 640;
  const height = options.height ?? 220;
  const margin = { top: 12, right: 8, bottom: 28, left: 56 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const values = options.points.map((point) => Math.max(0, point.value));
  const { top, ticks } = niceScale(Math.max(0, ...values));
  const y = (value: number) => margin.top + plotHeight - (value / top) * plotHeight;
  const slot = plotWidth / Math.max(1, options.points.length);
  const barWidth = Math.max(1, Math.min(48, slot * 0.7));
  const labelEvery = Math.max(1, Math.ceil(options.points.length / 10));

  return s(
    "svg",
    {
      class: "chart",
      viewBox: `0 0 ${width} ${height}`,
      role: "img",
      "aria-label": options.label,
      preserveAspectRatio: "xMidYMid meet",
    },
    ticks.map((tick) =>
      s(
        "g",
        { class: "tick" },
        s("line", {
          x1: margin.left,
          x2: width - margin.right,
          y1: y(tick),
          y2: y(tick),
          class: "grid",
        }),
        s(
          "text",
          { x: margin.left - 6, y: y(tick) + 4, "text-anchor": "end", class: "axis-label" },
          options.formatTick(tick),
        ),
      ),
    ),
    options.points.map((point, index) => {
      const x = margin.left + slot * index + (slot - barWidth) / 2;
      const value = Math.max(0, point.value);
      return s(
        "g",
        { class: "column" },
        s(
          "rect",
          {
            x,
            y: y(value),
            width: barWidth,
            height: Math.max(0, y(0) - y(value)),
            class: "bar",
            rx: 2,
          },
          s("title", {}, point.title),
        ),
        index % labelEvery === 0 &&
          s(
            "text",
            { x: x + barWidth / 2, y: height - 8, "text-anchor": "middle", class: "axis-label" },
            point.label,
          ),
      );
    }),
    s("line", { x1: margin.left, x2: width - margin.right, y1: y(0), y2: y(0), class: "baseline" }),
  );
}
