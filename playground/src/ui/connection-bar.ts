import { create } from "@bufbuild/protobuf";
import type { ClientProtocol } from "@costplugin/client";
import { CostSourceService, NameRequestSchema } from "@costplugin/proto";
import type { AppContext } from "../app-context.js";
import { h, replaceChildren } from "../dom.js";
import { explainError } from "../error-explanation.js";
import { protocolChoices } from "../playground-state.js";
import { callInspector } from "./call-inspector.js";

/**
 * The plugin URL field and the protocol switch. The URL applies on Enter or the Connect button
 * (not per keystroke: half-typed hosts are not worth a request); the protocol applies at once.
 * Shows the plugin's display name from Name.
 */
export function connectionBar(app: AppContext): HTMLElement {
  const { store } = app;
  const urlInput = h("input", {
    id: "plugin-url",
    name: "url",
    type: "url",
    required: true,
    autocomplete: "url",
    spellcheck: "false",
    value: store.get().baseUrl,
  });
  const protocolSelect = h(
    "select",
    { id: "plugin-protocol", name: "protocol" },
    protocolChoices.map((choice) =>
      h(
        "option",
        { value: choice.value, selected: choice.value === store.get().protocol },
        choice.label,
      ),
    ),
  );
  const name = h("span", { class: "plugin-name", id: "plugin-name" }, "…");
  const nameCall = h("div", { class: "name-call" });
  const urlError = h("p", { class: "field-error", id: "plugin-url-error", role: "alert" });

  const form = h(
    "form",
    { class: "connection", "aria-label": "Plugin connection" },
    h("div", { class: "field grow" }, h("label", { for: "plugin-url" }, "Plugin URL"), urlInput),
    h(
      "div",
      { class: "field" },
      h("label", { for: "plugin-protocol" }, "Protocol"),
      protocolSelect,
    ),
    h("button", { type: "submit", class: "primary" }, "Connect"),
    urlError,
  );

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const value = urlInput.value.trim().replace(/\/+$/, "");
    if (!isHttpUrl(value)) {
      urlError.textContent = "Enter an http:// or https:// URL, e.g. http://127.0.0.1:8080";
      urlInput.setAttribute("aria-invalid", "true");
      return;
    }
    urlError.textContent = "";
    urlInput.removeAttribute("aria-invalid");
    store.update((state) => (state.baseUrl === value ? state : { ...state, baseUrl: value }));
  });
  protocolSelect.addEventListener("change", () => {
    const protocol = protocolSelect.value as ClientProtocol;
    store.update((state) => (state.protocol === protocol ? state : { ...state, protocol }));
  });
  urlInput.setAttribute("aria-describedby", "plugin-url-error");

  let sequence = 0;
  app.onSession(async (session) => {
    urlInput.value = session.baseUrl;
    protocolSelect.value = session.protocol;
    const mine = ++sequence;
    name.textContent = "…";
    const outcome = await session.call(
      CostSourceService.method.name,
      create(NameRequestSchema, {}),
    );
    if (mine !== sequence) return;
    name.textContent = outcome.ok
      ? outcome.value.name || "(unnamed plugin)"
      : `(no name: ${explainError(outcome.error, session.baseUrl).connectCode})`;
    replaceChildren(nameCall, callInspector(outcome.record));
  });

  return h(
    "section",
    { class: "panel connection-panel", "aria-labelledby": "connection-title" },
    h(
      "div",
      { class: "panel-head" },
      h("h2", { id: "connection-title" }, "Plugin"),
      h("span", { class: "muted" }, "Name: "),
      name,
    ),
    form,
    nameCall,
  );
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}
