import { h } from "../dom.js";
import { formatClock, formatLatency } from "../format.js";
import type { CallRecord } from "../plugin-session.js";
import { bufCurlCommand, curlCommand } from "../shell-commands.js";
import { copyButton } from "./copy-button.js";
import { errorView } from "./error-view.js";

/**
 * A collapsible view of one call: request and response as JSON, latency, and the same call as
 * copyable `curl` (Connect JSON) and `buf curl` commands. `note` says why the call was made when
 * the page made it on its own (e.g. a probe).
 */
export function callInspector(record: CallRecord, note?: string): HTMLDetailsElement {
  const ok = record.error === undefined;
  const curl = curlCommand(record);
  const bufCurl = bufCurlCommand(record);
  return h(
    "details",
    { class: "call", "data-method": record.method.name },
    h(
      "summary",
      {},
      h("span", { class: "call-method" }, record.method.name),
      h("span", { class: ok ? "chip chip-ok" : "chip chip-error" }, ok ? "ok" : "error"),
      h("span", { class: "call-latency" }, formatLatency(record.latencyMs)),
      h("span", { class: "muted call-time" }, formatClock(record.startedAt)),
      note && h("span", { class: "muted call-note" }, note),
    ),
    h(
      "div",
      { class: "call-body" },
      h("p", { class: "muted call-target" }, `${record.protocol} → ${record.baseUrl}`),
      codeBlock("Request", JSON.stringify(record.request, null, 2), "call-request"),
      ok
        ? codeBlock("Response", JSON.stringify(record.response, null, 2), "call-response")
        : h("div", {}, h("h4", {}, "Error"), errorView(record.error, record.baseUrl)),
      commandBlock("curl (Connect JSON)", curl, "call-curl"),
      commandBlock("buf curl", bufCurl, "call-buf-curl"),
    ),
  );
}

function codeBlock(title: string, text: string, className: string): HTMLElement {
  return h("div", {}, h("h4", {}, title), h("pre", { class: className, tabindex: "0" }, text));
}

function commandBlock(title: string, command: string, className: string): HTMLElement {
  return h(
    "div",
    { class: "command" },
    h(
      "div",
      { class: "command-head" },
      h("h4", {}, title),
      copyButton(`Copy ${title} command`, () => command),
    ),
    h("pre", { class: className, tabindex: "0" }, command),
  );
}
