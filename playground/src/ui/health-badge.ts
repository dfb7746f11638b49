import { create } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import {
  HealthCheckRequestSchema,
  HealthCheckResponse_Status,
  ObservabilityService,
} from "@costplugin/proto";
import type { AppContext } from "../app-context.js";
import { h, replaceChildren } from "../dom.js";
import { explainError } from "../error-explanation.js";
import { formatClock } from "../format.js";
import type { CallRecord } from "../plugin-session.js";
import { callInspector } from "./call-inspector.js";

/** Options of `healthBadge`. */
export interface HealthBadgeOptions {
  /** How often HealthCheck runs, in milliseconds. Default 15 000. */
  readonly intervalMs?: number;
}

const statusLabels: Readonly<Record<HealthCheckResponse_Status, string>> = {
  [HealthCheckResponse_Status.UNSPECIFIED]: "UNKNOWN",
  [HealthCheckResponse_Status.SERVING]: "SERVING",
  [HealthCheckResponse_Status.NOT_SERVING]: "NOT SERVING",
  [HealthCheckResponse_Status.SERVICE_UNKNOWN]: "SERVICE UNKNOWN",
};

/**
 * The plugin's health from HealthCheck, refreshed every `intervalMs` and on demand: status,
 * message and the plugin's last check time. A plugin that cannot be reached reads UNREACHABLE.
 */
export function healthBadge(app: AppContext, options: HealthBadgeOptions = {}): HTMLElement {
  const intervalMs = options.intervalMs ?? 15_000;
  const status = h("span", { class: "health-status", "data-status": "checking" }, "CHECKING");
  const message = h("span", { class: "health-message" });
  const checked = h("span", { class: "health-time muted" });
  const inspector = h("div", { class: "health-call" });
  const checkNow = h("button", { type: "button", class: "secondary small" }, "Check now");
  let sequence = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const show = (
    label: string,
    state: string,
    text: string,
    time: Date | undefined,
    record: CallRecord,
  ) => {
    status.textContent = label;
    status.dataset.status = state;
    message.textContent = text;
    checked.textContent = time ? `checked ${formatClock(time)}` : "";
    replaceChildren(inspector, callInspector(record));
  };

  const check = async () => {
    if (timer !== undefined) clearTimeout(timer);
    const mine = ++sequence;
    const session = app.session();
    const outcome = await session.call(
      ObservabilityService.method.healthCheck,
      create(HealthCheckRequestSchema, {}),
    );
    if (mine !== sequence) return;
    if (outcome.ok) {
      const value = outcome.value;
      const label = statusLabels[value.status] ?? "UNKNOWN";
      const state = value.status === HealthCheckResponse_Status.SERVING ? "serving" : "not-serving";
      const time = value.lastCheckTime
        ? timestampDate(value.lastCheckTime)
        : outcome.record.startedAt;
      show(label, state, value.message, time, outcome.record);
    } else {
      const explained = explainError(outcome.error, session.baseUrl);
      const label = explained.detail ? "ERROR" : "UNREACHABLE";
      show(
        label,
        "unreachable",
        explained.detail?.message || explained.message,
        outcome.record.startedAt,
        outcome.record,
      );
    }
    timer = setTimeout(check, intervalMs);
  };

  checkNow.addEventListener("click", () => void check());
  app.onSession(() => {
    status.textContent = "CHECKING";
    status.dataset.status = "checking";
    void check();
  });

  return h(
    "section",
    { class: "health", "aria-label": "Plugin health" },
    h(
      "div",
      { class: "health-line", role: "status", "aria-live": "polite" },
      h("span", { class: "health-dot", "aria-hidden": "true" }),
      status,
      message,
      checked,
    ),
    checkNow,
    inspector,
  );
}
