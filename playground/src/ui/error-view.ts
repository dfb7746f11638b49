import { h } from "../dom.js";
import type { ErrorExplanation } from "../error-explanation.js";
import { explainError } from "../error-explanation.js";

/** Renders a failed call for a person: code, decoded ErrorDetail, what to do next. */
export function errorView(error: unknown, baseUrl: string): HTMLElement {
  return explanationView(explainError(error, baseUrl));
}

/** Renders an already explained error. */
export function explanationView(explained: ErrorExplanation): HTMLElement {
  const detail = explained.detail;
  const detailEntries = detail ? Object.entries(detail.details) : [];
  return h(
    "div",
    { class: "error-view", "data-connect-code": explained.connectCode },
    h(
      "p",
      { class: "error-headline" },
      h("span", { class: "chip chip-error" }, explained.connectCode),
      " ",
      detail?.message || explained.message,
    ),
    detail &&
      h(
        "dl",
        { class: "error-detail" },
        h("dt", {}, "Error code"),
        h("dd", { class: "error-code" }, detail.code),
        h("dt", {}, "Category"),
        h("dd", { class: "error-category" }, detail.category),
        detail.retryAfterSeconds !== undefined && [
          h("dt", {}, "Retry after"),
          h("dd", { class: "error-retry-after" }, `${detail.retryAfterSeconds} s`),
        ],
        detailEntries.length > 0 && [
          h("dt", {}, "Details"),
          h(
            "dd",
            {},
            detailEntries.map(([key, value]) => h("code", { class: "kv" }, `${key}=${value}`)),
          ),
        ],
      ),
    !detail && h("p", { class: "muted" }, "The plugin sent no ErrorDetail with this error."),
    h("p", { class: "error-advice" }, h("strong", {}, "What to do: "), explained.advice),
  );
}
