import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { Metric, ServiceLevelIndicator } from "@costplugin/proto";
import {
  GetMetricsRequestSchema,
  GetServiceLevelIndicatorsRequestSchema,
  MetricTypeSchema,
  ObservabilityService,
  SLIStatus,
  SLIStatusSchema,
} from "@costplugin/proto";
import type { AppContext } from "../app-context.js";
import { barListChart } from "../charts/bar-list-chart.js";
import { h, replaceChildren } from "../dom.js";
import { formatNumber } from "../format.js";
import { metricTotal, requestsByMethod } from "../metrics-summary.js";
import type { SliWindow } from "../playground-state.js";
import { sliWindows } from "../playground-state.js";
import { callInspector } from "./call-inspector.js";
import { errorView } from "./error-view.js";

/** Options of `metricsPanel`. */
export interface MetricsPanelOptions {
  /** How often the panel reloads, in milliseconds. Default 30 000. */
  readonly intervalMs?: number;
}

const windowLabels: Readonly<Record<SliWindow, string>> = {
  5: "Last 5 minutes",
  60: "Last hour",
  1440: "Last 24 hours",
};

const statusClass: Readonly<Record<SLIStatus, string>> = {
  [SLIStatus.SLI_STATUS_UNSPECIFIED]: "chip",
  [SLIStatus.SLI_STATUS_MEETING_TARGET]: "chip chip-ok",
  [SLIStatus.SLI_STATUS_WARNING]: "chip chip-warn",
  [SLIStatus.SLI_STATUS_CRITICAL]: "chip chip-error",
};

/**
 * The selected plugin's service level indicators (GetServiceLevelIndicators over a chosen
 * window) as status cards, and its request counts per method (GetMetrics) as a chart, with every
 * metric listed underneath. Reloads on demand, on a timer and when the plugin changes.
 */
export function metricsPanel(app: AppContext, options: MetricsPanelOptions = {}): HTMLElement {
  const { store } = app;
  const intervalMs = options.intervalMs ?? 30_000;
  const sliBox = h("div", { class: "sli-box" });
  const metricsBox = h("div", { class: "metrics-box" });
  const calls = {
    sli: h("div", { class: "call-slot" }),
    metrics: h("div", { class: "call-slot" }),
  };
  const windowSelect = h(
    "select",
    { id: "sli-window", name: "sli" },
    sliWindows.map((minutes) =>
      h(
        "option",
        { value: String(minutes), selected: minutes === store.get().sliWindowMinutes },
        windowLabels[minutes],
      ),
    ),
  );
  const refresh = h("button", { type: "button", class: "secondary small" }, "Refresh");
  let sequence = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const load = async () => {
    if (timer !== undefined) clearTimeout(timer);
    const mine = ++sequence;
    const session = app.session();
    const now = Date.now();
    const [slis, metrics] = await Promise.all([
      session.call(
        ObservabilityService.method.getServiceLevelIndicators,
        create(GetServiceLevelIndicatorsRequestSchema, {
          timeRange: {
            start: timestampFromMs(now - store.get().sliWindowMinutes * 60_000),
            end: timestampFromMs(now),
          },
        }),
      ),
      session.call(
        ObservabilityService.method.getMetrics,
        create(GetMetricsRequestSchema, { format: "json" }),
      ),
    ]);
    if (mine !== sequence) return;
    replaceChildren(calls.sli, callInspector(slis.record));
    replaceChildren(calls.metrics, callInspector(metrics.record));
    replaceChildren(
      sliBox,
      slis.ok ? sliView(slis.value.slis) : errorView(slis.error, session.baseUrl),
    );
    replaceChildren(
      metricsBox,
      metrics.ok ? metricsView(metrics.value.metrics) : errorView(metrics.error, session.baseUrl),
    );
    timer = setTimeout(load, intervalMs);
  };

  windowSelect.addEventListener("change", () => {
    const minutes = sliWindows.find((value) => String(value) === windowSelect.value);
    if (minutes === undefined) return;
    store.update((state) => ({ ...state, sliWindowMinutes: minutes }));
    void load();
  });
  refresh.addEventListener("click", () => void load());
  app.onSession(() => void load());

  return h(
    "section",
    { class: "panel metrics-panel", id: "metrics", "aria-labelledby": "metrics-title" },
    h(
      "div",
      { class: "panel-head" },
      h("h2", { id: "metrics-title" }, "Metrics & SLIs"),
      h("span", { class: "muted" }, "GetServiceLevelIndicators · GetMetrics"),
    ),
    h(
      "div",
      { class: "toolbar" },
      h(
        "div",
        { class: "field inline" },
        h("label", { for: "sli-window" }, "Window"),
        windowSelect,
      ),
      refresh,
    ),
    sliBox,
    metricsBox,
    h("div", { class: "calls" }, calls.sli, calls.metrics),
  );
}

function sliView(slis: readonly ServiceLevelIndicator[]): HTMLElement {
  if (slis.length === 0)
    return h("p", { class: "muted" }, "The plugin reported no SLIs for this window.");
  return h(
    "ul",
    { class: "sli-cards" },
    slis.map((sli) =>
      h(
        "li",
        { class: "sli-card", "data-sli": sli.name },
        h("div", { class: "sli-name" }, sli.name),
        h("div", { class: "sli-value" }, formatSliValue(sli.value, sli.unit)),
        h("div", { class: "muted" }, `target ${formatSliValue(sli.targetValue, sli.unit)}`),
        h("span", { class: statusClass[sli.status] ?? "chip" }, statusName(sli.status)),
        sli.description && h("p", { class: "muted small" }, sli.description),
      ),
    ),
  );
}

function statusName(status: SLIStatus): string {
  return (SLIStatusSchema.value[status]?.name ?? "SLI_STATUS_UNSPECIFIED")
    .replace("SLI_STATUS_", "")
    .replaceAll("_", " ");
}

function metricsView(metrics: readonly Metric[]): HTMLElement {
  const perMethod = requestsByMethod(metrics);
  return h(
    "div",
    {},
    h("h3", {}, "Requests per method"),
    perMethod.length === 0
      ? h("p", { class: "muted" }, "No per-method request counter in the plugin's metrics yet.")
      : barListChart(
          perMethod.map((row) => ({
            label: row.method,
            valueText: formatNumber(row.ok + row.failed, 0),
            segments: [
              // The row's label names the method; segments say only their count.
              { value: row.ok, kind: "ok", title: `${row.ok} ok` },
              { value: row.failed, kind: "error", title: `${row.failed} failed` },
            ],
          })),
          "Requests per method: successes and failures",
        ),
    perMethod.length > 0 &&
      h(
        "p",
        { class: "legend muted" },
        h("span", { class: "swatch ok" }),
        " ok ",
        h("span", { class: "swatch error" }),
        " failed",
      ),
    h(
      "details",
      { class: "all-metrics" },
      h("summary", {}, `All metrics (${metrics.length})`),
      h(
        "div",
        { class: "table-scroll" },
        h(
          "table",
          {},
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              h("th", { scope: "col" }, "Name"),
              h("th", { scope: "col" }, "Type"),
              h("th", { scope: "col", class: "num" }, "Samples"),
              h("th", { scope: "col", class: "num" }, "Sum"),
            ),
          ),
          h(
            "tbody",
            {},
            metrics.map((metric) =>
              h(
                "tr",
                {},
                h("td", { title: metric.help }, h("code", {}, metric.name)),
                h(
                  "td",
                  {},
                  (MetricTypeSchema.value[metric.type]?.name ?? "")
                    .replace("METRIC_TYPE_", "")
                    .toLowerCase(),
                ),
                h("td", { class: "num" }, String(metric.samples.length)),
                h("td", { class: "num" }, formatNumber(metricTotal(metric), 4)),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

/** An SLI figure with its unit as a person reads it: `99.95 %`, `120 ms`, `1.5 s`. */
export function formatSliValue(value: number, unit: string): string {
  switch (unit) {
    case "percent":
      return `${formatNumber(value, 3)} %`;
    case "seconds":
      return value < 1 ? `${formatNumber(value * 1000, 1)} ms` : `${formatNumber(value, 2)} s`;
    default:
      return `${formatNumber(value, 4)} ${unit}`.trim();
  }
}
