import { create } from "@bufbuild/protobuf";
import type { GetProjectedCostResponse, PricingSpec } from "@costplugin/proto";
import {
  CostSourceService,
  GetPricingSpecRequestSchema,
  GetProjectedCostRequestSchema,
  SupportsRequestSchema,
} from "@costplugin/proto";
import type { AppContext } from "../app-context.js";
import { createDebounced } from "../debounce.js";
import { h, replaceChildren } from "../dom.js";
import { isNotOffered } from "../error-explanation.js";
import { formatMoney } from "../format.js";
import type { ResourceInput } from "../playground-state.js";
import { sameResource } from "../playground-state.js";
import { descriptorFromInput } from "../resource-request.js";
import type { SuggestedField, Suggestions } from "../suggestions.js";
import { noSuggestions, suggestionsFor, suggestionsFromReason } from "../suggestions.js";
import { callInspector } from "./call-inspector.js";
import { errorView } from "./error-view.js";
import { tagsEditor } from "./tags-editor.js";

/** Options of `resourcePanel`. */
export interface ResourcePanelOptions {
  /** Wait after the last keystroke before Supports runs, in milliseconds. Default 300. */
  readonly supportsDebounceMs?: number;
}

const fields: ReadonlyArray<{ key: SuggestedField; label: string; placeholder: string }> = [
  { key: "provider", label: "Provider", placeholder: "aws" },
  { key: "resourceType", label: "Resource type", placeholder: "ec2" },
  { key: "sku", label: "SKU", placeholder: "t3.micro" },
  { key: "region", label: "Region", placeholder: "us-east-1" },
];

const fieldNouns: Readonly<Record<SuggestedField, string>> = {
  provider: "providers",
  resourceType: "resource types",
  sku: "SKUs",
  region: "regions",
};

/**
 * The resource form: Supports as the user types (debounced), suggestions from the plugin's own
 * reasons, and "Price it" (GetProjectedCost, then GetPricingSpec) with a pin to the comparison.
 */
export function resourcePanel(app: AppContext, options: ResourcePanelOptions = {}): HTMLElement {
  const { store } = app;
  let learned: Suggestions = noSuggestions;
  const inputs = new Map<SuggestedField, HTMLInputElement>();
  const datalists = new Map<SuggestedField, HTMLDataListElement>();
  const supportsBox = h("div", {
    class: "supports",
    id: "supports",
    "aria-live": "polite",
    "data-state": "idle",
  });
  const resultBox = h("div", { class: "projected", id: "projected", "aria-live": "polite" });
  const calls = {
    supports: h("div", { class: "call-slot" }),
    projected: h("div", { class: "call-slot" }),
    spec: h("div", { class: "call-slot" }),
  };

  const current = (): ResourceInput => store.get().resource;
  const setResource = (patch: Partial<ResourceInput>) =>
    store.update((state) => ({ ...state, resource: { ...state.resource, ...patch } }));

  const refreshDatalists = () => {
    const offered = suggestionsFor(current(), learned);
    for (const { key } of fields) {
      const list = datalists.get(key);
      if (list)
        replaceChildren(
          list,
          offered[key].map((value) => h("option", { value })),
        );
    }
  };

  // Supports, with a sequence number so a slow answer never overwrites a newer one.
  let supportsSequence = 0;
  const runSupports = async () => {
    const mine = ++supportsSequence;
    const resource = current();
    if (resource.provider.trim() === "" || resource.resourceType.trim() === "") {
      supportsBox.dataset.state = "idle";
      replaceChildren(
        supportsBox,
        h("p", { class: "muted" }, "Fill in provider and resource type to check support."),
      );
      return;
    }
    supportsBox.dataset.state = "pending";
    const session = app.session();
    const outcome = await session.call(
      CostSourceService.method.supports,
      create(SupportsRequestSchema, { resource: descriptorFromInput(resource) }),
    );
    if (mine !== supportsSequence) return;
    replaceChildren(calls.supports, callInspector(outcome.record));
    if (!outcome.ok) {
      supportsBox.dataset.state = "error";
      replaceChildren(
        supportsBox,
        h("p", {}, "Supports failed:"),
        errorView(outcome.error, session.baseUrl),
      );
      return;
    }
    const { supported, reason } = outcome.value;
    supportsBox.dataset.state = supported ? "supported" : "unsupported";
    const found = supported ? {} : suggestionsFromReason(reason);
    learned = mergeLearned(learned, found);
    refreshDatalists();
    replaceChildren(
      supportsBox,
      h(
        "p",
        { class: "supports-answer" },
        h(
          "span",
          { class: supported ? "chip chip-ok" : "chip chip-warn" },
          supported ? "Supported" : "Not supported",
        ),
        " ",
        h(
          "span",
          { class: "supports-reason" },
          reason || (supported ? "The plugin can price this resource." : "No reason given."),
        ),
      ),
      Object.entries(found).map(([field, values]) =>
        h(
          "div",
          { class: "suggestion-chips" },
          h("span", { class: "muted" }, `Known ${fieldNouns[field as SuggestedField]}: `),
          values.slice(0, 12).map((value) =>
            h(
              "button",
              {
                type: "button",
                class: "chip-button",
                onclick: () => {
                  const input = inputs.get(field as SuggestedField);
                  if (!input) return;
                  input.value = value;
                  input.dispatchEvent(new Event("input", { bubbles: true }));
                  input.focus();
                },
              },
              value,
            ),
          ),
        ),
      ),
    );
  };
  const debouncedSupports = createDebounced(
    () => void runSupports(),
    options.supportsDebounceMs ?? 300,
  );

  let priceSequence = 0;
  const priceIt = async () => {
    const mine = ++priceSequence;
    const resource = current();
    const session = app.session();
    replaceChildren(resultBox, h("p", { class: "muted" }, "Pricing…"));
    const request = { resource: descriptorFromInput(resource) };
    const outcome = await session.call(
      CostSourceService.method.getProjectedCost,
      create(GetProjectedCostRequestSchema, request),
    );
    if (mine !== priceSequence) return;
    replaceChildren(calls.projected, callInspector(outcome.record));
    if (!outcome.ok) {
      replaceChildren(resultBox, errorView(outcome.error, session.baseUrl));
      return;
    }
    const specLine = h("p", { class: "spec-line muted" }, "Loading pricing spec…");
    replaceChildren(resultBox, projectedView(outcome.value, resource), specLine);
    const spec = await session.call(
      CostSourceService.method.getPricingSpec,
      create(GetPricingSpecRequestSchema, request),
    );
    if (mine !== priceSequence) return;
    replaceChildren(calls.spec, callInspector(spec.record));
    specLine.replaceWith(
      spec.ok && spec.value.spec
        ? specView(spec.value.spec)
        : !spec.ok && isNotOffered(spec.error)
          ? // Not a fault: billing data, for one, holds no price list. Said calmly, not in red.
            h(
              "p",
              { class: "spec-line muted spec-not-offered" },
              "This plugin does not offer GetPricingSpec (",
              h("code", {}, "unimplemented"),
              "), so there is no pricing spec to show.",
            )
          : h(
              "div",
              { class: "spec-line" },
              h("p", { class: "muted" }, "No pricing spec:"),
              spec.ok ? "" : errorView(spec.error, session.baseUrl),
            ),
    );
  };

  const projectedView = (value: GetProjectedCostResponse, resource: ResourceInput) => {
    const pin = h(
      "button",
      { type: "button", class: "secondary", id: "pin-result" },
      "Pin to comparison",
    );
    pin.addEventListener("click", () => {
      store.update((state) =>
        state.pins.some((existing) => sameResource(existing, resource))
          ? state
          : { ...state, pins: [...state.pins, resource] },
      );
      pin.textContent = "Pinned";
    });
    return h(
      "div",
      { class: "projected-result" },
      h(
        "dl",
        { class: "figures" },
        figure(
          "Unit price",
          formatMoney(value.unitPrice, value.currency, 6),
          "projected-unit-price",
          value.unitPrice,
        ),
        figure(
          "Monthly cost",
          formatMoney(value.costPerMonth, value.currency),
          "projected-monthly",
          value.costPerMonth,
        ),
        figure("Currency", value.currency || "—", "projected-currency"),
        figure("Billing detail", value.billingDetail || "—", "projected-billing"),
      ),
      pin,
    );
  };

  const form = h("form", { class: "resource-form", "aria-label": "Resource" });
  const grid = h("div", { class: "field-grid" });
  for (const field of fields) {
    const id = `resource-${field.key}`;
    const listId = `${id}-options`;
    const input = h("input", {
      id,
      name: field.key,
      list: listId,
      autocomplete: "off",
      spellcheck: "false",
      placeholder: field.placeholder,
      required: field.key === "provider" || field.key === "resourceType",
      value: current()[field.key],
    });
    input.addEventListener("input", () => {
      setResource({ [field.key]: input.value });
      debouncedSupports.call();
    });
    inputs.set(field.key, input);
    const list = h("datalist", { id: listId });
    datalists.set(field.key, list);
    grid.append(h("div", { class: "field" }, h("label", { for: id }, field.label), input, list));
  }
  const tags = tagsEditor({
    idPrefix: "resource-tag",
    legend: "Tags",
    rows: current().tags,
    onChange: (rows) => {
      setResource({ tags: rows });
      debouncedSupports.call();
    },
  });
  form.append(
    grid,
    tags.element,
    supportsBox,
    h(
      "div",
      { class: "actions" },
      h("button", { type: "submit", class: "primary", id: "price-it" }, "Price it"),
    ),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    debouncedSupports.cancel();
    void runSupports();
    void priceIt();
  });

  refreshDatalists();
  app.onSession(() => {
    learned = noSuggestions;
    refreshDatalists();
    replaceChildren(resultBox);
    void runSupports();
  });

  return h(
    "section",
    { class: "panel resource-panel", "aria-labelledby": "resource-title" },
    h(
      "div",
      { class: "panel-head" },
      h("h2", { id: "resource-title" }, "Resource"),
      h("span", { class: "muted" }, "Supports · GetProjectedCost · GetPricingSpec"),
    ),
    form,
    resultBox,
    h("div", { class: "calls" }, calls.supports, calls.projected, calls.spec),
  );
}

function figure(label: string, text: string, className: string, value?: number): HTMLElement[] {
  return [
    h("dt", {}, label),
    h(
      "dd",
      { class: className, "data-value": value === undefined ? undefined : String(value) },
      text,
    ),
  ];
}

function specView(spec: PricingSpec): HTMLElement {
  const asOf =
    spec.pluginMetadata.as_of ?? spec.pluginMetadata.asOf ?? spec.pluginMetadata.as_of_date;
  const hints = spec.metricHints.map((hint) => `${hint.metric} (${hint.unit})`).join(", ");
  return h(
    "div",
    { class: "spec-line" },
    h("h3", {}, "Pricing spec"),
    h(
      "dl",
      { class: "figures compact" },
      h("dt", {}, "Billing mode"),
      h("dd", { class: "spec-mode" }, spec.billingMode || "—"),
      h("dt", {}, "Rate"),
      h("dd", {}, formatMoney(spec.ratePerUnit, spec.currency, 6)),
      hints && [h("dt", {}, "Usage metrics"), h("dd", {}, hints)],
      spec.description && [h("dt", {}, "Description"), h("dd", {}, spec.description)],
      spec.source && [h("dt", {}, "Source"), h("dd", { class: "spec-source" }, spec.source)],
      asOf && [h("dt", {}, "As of"), h("dd", {}, asOf)],
    ),
  );
}

function mergeLearned(
  learned: Suggestions,
  found: Partial<Record<SuggestedField, string[]>>,
): Suggestions {
  const merged = { ...learned };
  for (const [field, values] of Object.entries(found) as Array<[SuggestedField, string[]]>) {
    merged[field] = [...new Set([...values, ...learned[field]])].slice(0, 100);
  }
  return merged;
}
