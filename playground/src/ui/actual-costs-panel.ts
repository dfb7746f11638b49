import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { ActualCostResult } from "@costplugin/proto";
import { CostSourceService } from "@costplugin/proto";
import {
  actualCostProbeRequest,
  actualCostRequestFromInput,
  servesActualCosts,
} from "../actual-costs-request.js";
import type { AppContext } from "../app-context.js";
import { columnChart } from "../charts/column-chart.js";
import { h, replaceChildren } from "../dom.js";
import { formatDay, formatNumber } from "../format.js";
import type { ActualCostInput } from "../playground-state.js";
import { callInspector } from "./call-inspector.js";
import { errorView } from "./error-view.js";
import { tagsEditor } from "./tags-editor.js";

/**
 * GetActualCost for a resource id, a date range and optional tag filters: daily results as a
 * column chart with the total, and as a table. When the plugin is opened a probe call decides
 * whether the plugin serves actual costs; when it does not, the panel shows the plugin's own
 * error and keeps the form behind "Try anyway".
 */
export function actualCostsPanel(app: AppContext): HTMLElement {
  const { store } = app;
  const status = h("div", { class: "actual-status", "aria-live": "polite" });
  const result = h("div", { class: "actual-result", "aria-live": "polite" });
  const callSlot = h("div", { class: "call-slot" });
  const current = (): ActualCostInput => store.get().actual;
  const setActual = (patch: Partial<ActualCostInput>) =>
    store.update((state) => ({ ...state, actual: { ...state.actual, ...patch } }));

  const field = (id: string, label: string, input: HTMLInputElement) =>
    h("div", { class: "field" }, h("label", { for: id }, label), input);
  const resourceId = h("input", {
    id: "actual-resource-id",
    name: "rid",
    required: true,
    autocomplete: "off",
    spellcheck: "false",
    value: current().resourceId,
    placeholder: "i-0123456789abcdef0",
  });
  const startDate = h("input", {
    id: "actual-start",
    name: "from",
    type: "date",
    required: true,
    value: current().startDate,
  });
  const endDate = h("input", {
    id: "actual-end",
    name: "to",
    type: "date",
    required: true,
    value: current().endDate,
  });
  resourceId.addEventListener("input", () => setActual({ resourceId: resourceId.value }));
  startDate.addEventListener("change", () => setActual({ startDate: startDate.value }));
  endDate.addEventListener("change", () => setActual({ endDate: endDate.value }));
  const tags = tagsEditor({
    idPrefix: "actual-tag",
    legend: "Tag filters",
    rows: current().tags,
    onChange: (rows) => setActual({ tags: rows }),
  });

  const form = h(
    "form",
    { class: "actual-form", "aria-label": "Actual costs query" },
    h(
      "div",
      { class: "field-grid" },
      field("actual-resource-id", "Resource id", resourceId),
      field("actual-start", "From (UTC day)", startDate),
      field("actual-end", "To (UTC day, included)", endDate),
    ),
    tags.element,
    h(
      "div",
      { class: "actions" },
      h("button", { type: "submit", class: "primary" }, "Get actual costs"),
    ),
  );

  let sequence = 0;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const mine = ++sequence;
    const session = app.session();
    replaceChildren(result, h("p", { class: "muted" }, "Loading…"));
    const outcome = await session.call(
      CostSourceService.method.getActualCost,
      actualCostRequestFromInput(current()),
    );
    if (mine !== sequence) return;
    replaceChildren(callSlot, callInspector(outcome.record));
    replaceChildren(
      result,
      outcome.ok
        ? resultsView(outcome.value.results, Math.max(320, Math.round(result.clientWidth || 640)))
        : errorView(outcome.error, session.baseUrl),
    );
  });

  const showForm = (visible: boolean) => {
    form.hidden = !visible;
    result.hidden = !visible;
  };

  app.onSession(async (session) => {
    const mine = ++sequence;
    replaceChildren(
      status,
      h("p", { class: "muted" }, "Checking whether this plugin serves actual costs…"),
    );
    replaceChildren(result);
    showForm(false);
    const outcome = await session.call(
      CostSourceService.method.getActualCost,
      actualCostProbeRequest(new Date()),
    );
    if (mine !== sequence) return;
    replaceChildren(
      callSlot,
      callInspector(outcome.record, "probe: does this plugin serve actual costs?"),
    );
    if (servesActualCosts(outcome)) {
      replaceChildren(status);
      showForm(true);
      return;
    }
    const tryAnyway = h("button", { type: "button", class: "secondary small" }, "Try anyway");
    tryAnyway.addEventListener("click", () => {
      showForm(true);
      tryAnyway.remove();
      resourceId.focus();
    });
    replaceChildren(
      status,
      h(
        "p",
        { class: "actual-unavailable" },
        "This plugin does not serve actual costs. Its answer:",
      ),
      outcome.ok ? "" : errorView(outcome.error, session.baseUrl),
      h(
        "p",
        { class: "muted" },
        "To chart actual costs, point the plugin URL at a plugin that serves them, such as the billing-data plugin.",
      ),
      tryAnyway,
    );
  });

  return h(
    "section",
    { class: "panel actual-panel", id: "actual-costs", "aria-labelledby": "actual-title" },
    h(
      "div",
      { class: "panel-head" },
      h("h2", { id: "actual-title" }, "Actual costs"),
      h("span", { class: "muted" }, "GetActualCost"),
    ),
    status,
    form,
    result,
    h("div", { class: "calls" }, callSlot),
  );
}

function resultsView(results: readonly ActualCostResult[], drawingWidth: number): HTMLElement {
  if (results.length === 0)
    return h(
      "p",
      { class: "muted actual-empty" },
      "No costs recorded for this resource in this range.",
    );
  const rows = results.map((row) => ({
    row,
    date: row.timestamp ? timestampDate(row.timestamp) : undefined,
  }));
  const total = results.reduce((sum, row) => sum + row.cost, 0);
  return h(
    "div",
    {},
    h(
      "p",
      { class: "actual-total" },
      "Total ",
      h("strong", { "data-value": String(total) }, formatNumber(total, 2, 2)),
      ` over ${results.length} result${results.length === 1 ? "" : "s"}`,
    ),
    columnChart({
      // Drawn at the width it is shown at, so axis labels keep their size on any screen.
      width: drawingWidth,
      label: `Actual cost per day, total ${formatNumber(total, 2)}`,
      formatTick: (value) => formatNumber(value, 2),
      points: rows.map(({ row, date }) => ({
        label: date ? formatDay(date) : "?",
        value: row.cost,
        title: `${date ? date.toISOString().slice(0, 10) : "?"}: ${formatNumber(row.cost, 4)}`,
      })),
    }),
    h(
      "div",
      { class: "table-scroll" },
      h(
        "table",
        { class: "actual-table" },
        h("caption", { class: "visually-hidden" }, "Actual cost results"),
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, "Date (UTC)"),
            h("th", { scope: "col", class: "num" }, "Cost"),
            h("th", { scope: "col", class: "num" }, "Usage"),
            h("th", { scope: "col" }, "Source"),
          ),
        ),
        h(
          "tbody",
          {},
          rows.map(({ row, date }) =>
            h(
              "tr",
              {},
              h(
                "td",
                {},
                date ? date.toISOString().replace("T00:00:00.000Z", "").replace(".000Z", "Z") : "—",
              ),
              h(
                "td",
                { class: "num", "data-value": String(row.cost) },
                formatNumber(row.cost, 4, 2),
              ),
              h(
                "td",
                { class: "num" },
                row.usageUnit
                  ? `${formatNumber(row.usageAmount, 4)} ${row.usageUnit}`
                  : row.usageAmount
                    ? formatNumber(row.usageAmount, 4)
                    : "—",
              ),
              h("td", {}, row.source || "—"),
            ),
          ),
        ),
        h(
          "tfoot",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "row" }, "Total"),
            h("td", { class: "num" }, formatNumber(total, 4, 2)),
            h("td", {}),
            h("td", {}),
          ),
        ),
      ),
    ),
  );
}
