import "./styles.css";
import { createAppContext } from "./app-context.js";
import { h } from "./dom.js";
import { defaultState } from "./playground-state.js";
import { createStore } from "./store.js";
import { actualCostsPanel } from "./ui/actual-costs-panel.js";
import { comparisonPanel } from "./ui/comparison-panel.js";
import { connectionBar } from "./ui/connection-bar.js";
import { healthBadge } from "./ui/health-badge.js";
import { metricsPanel } from "./ui/metrics-panel.js";
import { resourcePanel } from "./ui/resource-panel.js";
import { queryFromState, stateFromQuery } from "./url-state.js";

// The built page is served by the plugin itself, so its own origin is the plugin; the dev server
// runs on another port, next to a plugin started separately (VITE_PLUGIN_URL overrides).
const defaultPluginUrl = __PLAYGROUND_DEV_SERVER__
  ? (import.meta.env.VITE_PLUGIN_URL ?? "http://127.0.0.1:8080")
  : location.origin;

const defaults = defaultState(defaultPluginUrl, new Date());
const store = createStore(stateFromQuery(location.search, defaults));
store.subscribe((state) => {
  const query = queryFromState(state, defaults);
  history.replaceState(
    history.state,
    "",
    `${location.pathname}${query ? `?${query}` : ""}${location.hash}`,
  );
});
const app = createAppContext({ store });

const root = document.getElementById("app");
if (root === null) throw new Error("the page has no #app element");
root.replaceChildren(
  h(
    "header",
    { class: "top" },
    h(
      "div",
      { class: "brand" },
      h("h1", {}, "costplugin playground"),
      h("p", { class: "muted" }, "Explore a cost source plugin straight from the browser."),
    ),
    healthBadge(app),
  ),
  h(
    "main",
    { id: "main" },
    connectionBar(app),
    h("div", { class: "columns" }, resourcePanel(app), comparisonPanel(app)),
    actualCostsPanel(app),
    metricsPanel(app),
  ),
  h(
    "footer",
    { class: "muted" },
    "Calls go straight from this page to the plugin through @costplugin/client. Open a call's details for its JSON, latency and curl / buf curl equivalents. The page address holds the current view: copy it to share.",
  ),
);
