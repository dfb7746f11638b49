import { h } from "../dom.js";

/** One segment of a horizontal bar, e.g. the failed share of a method's requests. */
export interface BarSegment {
  readonly value: number;
  /** CSS class giving the segment its colour, e.g. `ok` or `error`. */
  readonly kind: string;
  readonly title: string;
}

/** One labelled horizontal bar made of stacked segments. */
export interface BarRow {
  readonly label: string;
  readonly segments: readonly BarSegment[];
  /** Text at the end of the bar, e.g. the total. */
  readonly valueText: string;
}

/**
 * A list of horizontal stacked bars (e.g. requests per method, ok vs. failed), all on one scale
 * so lengths compare. Drawn with HTML boxes rather than SVG so labels keep a readable size at
 * any width, from a phone to a wide screen.
 */
export function barListChart(rows: readonly BarRow[], label: string): HTMLElement {
  const totals = rows.map((row) =>
    row.segments.reduce((sum, segment) => sum + Math.max(0, segment.value), 0),
  );
  const max = Math.max(1, ...totals);
  return h(
    "ul",
    { class: "bar-list", "aria-label": label },
    rows.map((row, index) =>
      h(
        "li",
        {
          class: "bar-row",
          "aria-label": `${row.label}: ${row.segments.map((segment) => segment.title).join(", ")}`,
        },
        h("span", { class: "bar-label" }, row.label),
        h(
          "span",
          { class: "bar-track", "aria-hidden": "true" },
          h(
            "span",
            {
              class: "bar-fill",
              style: `width: ${(((totals[index] ?? 0) / max) * 100).toFixed(2)}%`,
            },
            row.segments.map((segment) =>
              h("span", {
                class: `bar-segment ${segment.kind}`,
                title: segment.title,
                style: `flex-grow: ${Math.max(0, segment.value)}`,
              }),
            ),
          ),
        ),
        h("span", { class: "bar-value" }, row.valueText),
      ),
    ),
  );
}
