import { create } from "@bufbuild/protobuf";
import type { GetProjectedCostResponse } from "@costplugin/proto";
import { CostSourceService, GetProjectedCostRequestSchema } from "@costplugin/proto";
import type { AppContext } from "../app-context.js";
import { h, replaceChildren } from "../dom.js";
import { explainError } from "../error-explanation.js";
import { formatMoney } from "../format.js";
import type { ResourceInput, SortKey, SortOrder } from "../playground-state.js";
import { resourceLabel } from "../playground-state.js";
import type { PluginSession } from "../plugin-session.js";
import { descriptorFromInput, resourceKey } from "../resource-request.js";

type PinPrice =
  | { readonly state: "pending" }
  | { readonly state: "ok"; readonly value: GetProjectedCostResponse }
  | { readonly state: "error"; readonly message: string };

const columns: ReadonlyArray<{ key: SortKey; label: string; numeric: boolean }> = [
  { key: "resource", label: "Resource", numeric: false },
  { key: "unitPrice", label: "Unit price", numeric: true },
  { key: "costPerMonth", label: "Monthly cost", numeric: true },
];

/**
 * Pinned resources side by side, each priced with GetProjectedCost on the current plugin (and
 * priced again when the plugin or protocol changes), sortable by resource, unit price or
 * monthly cost. Rows that failed or are pending sort last whatever the direction.
 */
export function comparisonPanel(app: AppContext): HTMLElement {
  const { store } = app;
  const prices = new Map<string, PinPrice>();
  let session: PluginSession = app.session();
  const body = h("div", { class: "comparison-body" });

  const price = async (pin: ResourceInput, key: string, owner: PluginSession) => {
    prices.set(key, { state: "pending" });
    const outcome = await owner.call(
      CostSourceService.method.getProjectedCost,
      create(GetProjectedCostRequestSchema, { resource: descriptorFromInput(pin) }),
    );
    if (owner !== session) return;
    prices.set(
      key,
      outcome.ok
        ? { state: "ok", value: outcome.value }
        : { state: "error", message: describe(outcome.error, owner.baseUrl) },
    );
    render();
  };

  const ensurePrices = () => {
    for (const pin of store.get().pins) {
      const key = resourceKey(pin);
      if (!prices.has(key)) void price(pin, key, session);
    }
  };

  const setSort = (key: SortKey) =>
    store.update((state) => ({
      ...state,
      sort: {
        key,
        direction: state.sort.key === key && state.sort.direction === "asc" ? "desc" : "asc",
      },
    }));

  const render = () => {
    const { pins, sort } = store.get();
    if (pins.length === 0) {
      replaceChildren(
        body,
        h(
          "p",
          { class: "muted" },
          "Price a resource and pin it to compare several side by side (e.g. three instance types in two regions).",
        ),
      );
      return;
    }
    const rows = sortedPins(pins, prices, sort);
    replaceChildren(
      body,
      h(
        "div",
        { class: "table-scroll" },
        h(
          "table",
          { class: "comparison", id: "comparison-table" },
          h("caption", { class: "visually-hidden" }, "Pinned resources, sortable by column"),
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              columns.map((column) =>
                h(
                  "th",
                  {
                    scope: "col",
                    class: column.numeric ? "num" : undefined,
                    "aria-sort":
                      sort.key === column.key
                        ? sort.direction === "asc"
                          ? "ascending"
                          : "descending"
                        : "none",
                  },
                  h(
                    "button",
                    {
                      type: "button",
                      class: "sort",
                      "data-sort": column.key,
                      onclick: () => setSort(column.key),
                    },
                    column.label,
                    h(
                      "span",
                      { "aria-hidden": "true", class: "sort-mark" },
                      sort.key === column.key ? (sort.direction === "asc" ? " ▲" : " ▼") : "",
                    ),
                  ),
                ),
              ),
              h("th", { scope: "col", class: "billing-col" }, "Billing detail"),
              h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "Actions")),
            ),
          ),
          h(
            "tbody",
            {},
            rows.map(({ pin, priced }) => {
              const label = resourceLabel(pin);
              const remove = h(
                "button",
                {
                  type: "button",
                  class: "secondary small remove",
                  "aria-label": `Remove ${label}`,
                },
                h("span", { class: "remove-text" }, "Remove"),
                h("span", { class: "remove-icon", "aria-hidden": "true" }, "✕"),
              );
              remove.addEventListener("click", () =>
                store.update((state) => ({
                  ...state,
                  pins: state.pins.filter((other) => other !== pin),
                })),
              );
              return h(
                "tr",
                { "data-key": resourceKey(pin) },
                h(
                  "th",
                  { scope: "row", class: "pin-label" },
                  label,
                  pin.tags.length > 0 &&
                    h(
                      "span",
                      { class: "muted" },
                      ` (${pin.tags.map(([k, v]) => `${k}=${v}`).join(", ")})`,
                    ),
                ),
                cells(priced),
                h("td", {}, remove),
              );
            }),
          ),
        ),
      ),
      h(
        "div",
        { class: "actions" },
        h(
          "button",
          {
            type: "button",
            class: "secondary small",
            onclick: () => store.update((state) => ({ ...state, pins: [] })),
          },
          "Clear all",
        ),
      ),
    );
  };

  store.subscribe((next, previous) => {
    if (next.pins === previous.pins && next.sort === previous.sort) return;
    ensurePrices();
    render();
  });
  app.onSession((next) => {
    session = next;
    prices.clear();
    ensurePrices();
    render();
  });

  return h(
    "section",
    { class: "panel comparison-panel", "aria-labelledby": "comparison-title" },
    h(
      "div",
      { class: "panel-head" },
      h("h2", { id: "comparison-title" }, "Comparison"),
      h("span", { class: "muted" }, "GetProjectedCost per pinned resource"),
    ),
    body,
  );
}

function cells(priced: PinPrice | undefined): HTMLElement[] {
  if (priced === undefined || priced.state === "pending") {
    return [
      h("td", { class: "num muted" }, "…"),
      h("td", { class: "num muted" }, "…"),
      h("td", { class: "billing-col" }, ""),
    ];
  }
  if (priced.state === "error") {
    return [
      h("td", { class: "num" }, "—"),
      h("td", { class: "num pin-error", title: priced.message }, "failed"),
      h("td", { class: "billing-col pin-error" }, priced.message),
    ];
  }
  const { value } = priced;
  return [
    h(
      "td",
      { class: "num unit-price", "data-value": String(value.unitPrice) },
      formatMoney(value.unitPrice, value.currency, 6),
    ),
    h(
      "td",
      { class: "num monthly", "data-value": String(value.costPerMonth) },
      formatMoney(value.costPerMonth, value.currency),
    ),
    h("td", { class: "billing-col" }, value.billingDetail),
  ];
}

function describe(error: unknown, baseUrl: string): string {
  const explained = explainError(error, baseUrl);
  return `${explained.connectCode}: ${explained.detail?.message || explained.message}`;
}

/** Pins in the table's order; pending and failed rows last in either direction. */
export function sortedPins(
  pins: readonly ResourceInput[],
  prices: ReadonlyMap<string, PinPrice>,
  sort: SortOrder,
): Array<{ pin: ResourceInput; priced: PinPrice | undefined }> {
  const rows = pins.map((pin) => ({ pin, priced: prices.get(resourceKey(pin)) }));
  const sign = sort.direction === "asc" ? 1 : -1;
  const numberOf = (priced: PinPrice | undefined): number | undefined => {
    if (priced?.state !== "ok") return undefined;
    return sort.key === "unitPrice" ? priced.value.unitPrice : priced.value.costPerMonth;
  };
  return rows.sort((a, b) => {
    if (sort.key === "resource")
      return sign * resourceLabel(a.pin).localeCompare(resourceLabel(b.pin));
    const x = numberOf(a.priced);
    const y = numberOf(b.priced);
    if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
    return sign * (x - y);
  });
}
