import { once } from "node:events";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { daysBetween, isDay } from "../day.js";
import type { CostDataset } from "./cost-dataset.js";
import { createCostDataset } from "./cost-dataset.js";
import type { FaultRule, VendorFault } from "./fault.js";

/** Options of `startVendorStandIn`. */
export interface VendorStandInOptions {
  /** The data served. Default: `createCostDataset()`. */
  readonly dataset?: CostDataset;
  /** Accepted bearer tokens. Default: any non-empty token. */
  readonly bearerTokens?: readonly string[];
  /** Bearer tokens answered with 401 or 403. */
  readonly rejectTokens?: Readonly<Record<string, 401 | 403>>;
  /** Known cost report tokens; others get 404. Default: any. */
  readonly costReportTokens?: readonly string[];
  /** Known workspace tokens; others get 404. Default: any. */
  readonly workspaceTokens?: readonly string[];
  /** Whether `end_date` includes its day. Default true. */
  readonly endDateInclusive?: boolean;
  /** Path prefix of the API. Default `/v2`. */
  readonly basePath?: string;
  /** Clock for rate-limit headers. Default `Date.now`. */
  readonly now?: () => number;
}

/** A request the stand-in received. */
export interface StandInRequest {
  /** Path and query as received. */
  readonly url: string;
  /** The `Authorization` header. */
  readonly authorization: string | undefined;
  /** The `page` parameter. */
  readonly page: number;
  /** Status answered (or 0 when the connection was dropped or left hanging). */
  status: number;
}

/** A running stand-in vendor. */
export interface VendorStandIn {
  /** The API base URL, e.g. `http://127.0.0.1:43121/v2` (use as `vendor_api_url`). */
  readonly url: string;
  /** The data served; restate or remove rows through it. */
  readonly dataset: CostDataset;
  /** Every request received, in order. */
  readonly requests: StandInRequest[];
  /** Queues a fault for the next matching request(s). */
  inject(fault: VendorFault, options?: { times?: number; page?: number }): void;
  /** Drops queued faults. */
  clearFaults(): void;
  /** Calls `listener` for each request as it arrives (before it is answered). */
  onRequest(listener: (request: StandInRequest) => void): () => void;
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

const maxLimit = 5000;

/**
 * Starts a server on 127.0.0.1 (ephemeral port) that speaks the vendor cost API: bearer tokens,
 * `cost_report_token`/`workspace_token`, date ranges, paging through `links.next`, rate-limit
 * headers, and faults on demand. For tests, demos and benchmarks only.
 */
export async function startVendorStandIn(
  options: VendorStandInOptions = {},
): Promise<VendorStandIn> {
  const dataset = options.dataset ?? createCostDataset();
  const basePath = options.basePath ?? "/v2";
  const now = options.now ?? Date.now;
  const inclusive = options.endDateInclusive ?? true;
  const rules: FaultRule[] = [];
  const requests: StandInRequest[] = [];
  const listeners = new Set<(request: StandInRequest) => void>();
  let origin = "http://127.0.0.1";

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", origin);
    const page = Number(url.searchParams.get("page") ?? "1");
    const record: StandInRequest = {
      url: req.url ?? "",
      authorization: req.headers.authorization,
      page,
      status: 0,
    };
    requests.push(record);
    for (const listener of listeners) listener(record);
    const resetAt = Math.floor(now() / 1000) + 60;
    const rateHeaders = {
      "x-rate-limit-limit": "1000",
      "x-rate-limit-remaining": "999",
      "x-rate-limit-reset": String(resetAt),
    };
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      const text = JSON.stringify(body);
      res.writeHead(status, { "content-type": "application/json", ...rateHeaders, ...headers });
      res.end(text);
    };

    if (req.method !== "GET" || url.pathname !== `${basePath}/costs`) {
      json(404, { errors: ["Not found"] });
      return;
    }
    const auth = req.headers.authorization ?? "";
    const token = auth.startsWith("Bearer ") ? auth.slice(7) : "";
    if (token === "" || (options.bearerTokens && !options.bearerTokens.includes(token))) {
      json(401, { errors: ["Invalid or missing token"] });
      return;
    }
    const rejected = options.rejectTokens?.[token];
    if (rejected !== undefined) {
      json(rejected, { errors: [rejected === 401 ? "Token revoked" : "Forbidden"] });
      return;
    }

    const rule = rules.find((r) => (r.page === undefined || r.page === page) && (r.times ?? 1) > 0);
    if (rule) {
      rule.times = (rule.times ?? 1) - 1;
      if (rule.times <= 0) rules.splice(rules.indexOf(rule), 1);
      const handled = await applyFault(rule.fault, res, record, rateHeaders, () => render());
      if (handled) return;
    }

    const body = render();
    if ("error" in body) json(body.status, { errors: [body.error] });
    else {
      record.status = 200;
      res.writeHead(200, { "content-type": "application/json", ...rateHeaders });
      res.end(body.text);
    }

    function render(): { text: string } | { status: number; error: string } {
      const report = url.searchParams.get("cost_report_token");
      const workspace = url.searchParams.get("workspace_token");
      if (!report && !workspace)
        return { status: 400, error: "cost_report_token or workspace_token is required" };
      if (report && options.costReportTokens && !options.costReportTokens.includes(report)) {
        return { status: 404, error: "Cost report not found" };
      }
      if (
        !report &&
        workspace &&
        options.workspaceTokens &&
        !options.workspaceTokens.includes(workspace)
      ) {
        return { status: 404, error: "Workspace not found" };
      }
      const start = url.searchParams.get("start_date") ?? "";
      const end = url.searchParams.get("end_date") ?? "";
      if (!isDay(start) || !isDay(end) || end < start) {
        return {
          status: 400,
          error: "start_date and end_date must be dates with start_date <= end_date",
        };
      }
      const bin = url.searchParams.get("date_bin") ?? "day";
      if (bin !== "day") return { status: 400, error: "this stand-in only bins by day" };
      const limit = Number(url.searchParams.get("limit") ?? "1000");
      if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) {
        return { status: 400, error: `limit must be between 1 and ${maxLimit}` };
      }
      if (!Number.isInteger(page) || page < 1)
        return { status: 400, error: "page must be a positive integer" };
      const groupings = (url.searchParams.get("groupings") ?? "provider,service,region,resource_id")
        .split(",")
        .filter((g) => g !== "");
      if (!groupings.includes("resource_id")) {
        return { status: 400, error: "this stand-in needs resource_id among the groupings" };
      }
      const desc = url.searchParams.get("order") !== "asc";
      return {
        text: buildPage(dataset, url, { start, end, inclusive, limit, page, groupings, desc }),
      };
    }
  };

  const applyFault = async (
    fault: VendorFault,
    res: ServerResponse,
    record: StandInRequest,
    rateHeaders: Record<string, string>,
    render: () => { text: string } | { status: number; error: string },
  ): Promise<boolean> => {
    switch (fault.kind) {
      case "status":
        record.status = fault.status;
        res.writeHead(fault.status, {
          "content-type": "application/json",
          ...rateHeaders,
          ...fault.headers,
        });
        res.end(fault.body ?? JSON.stringify({ errors: [`injected ${fault.status}`] }));
        return true;
      case "rate-limit": {
        record.status = 429;
        const headers: Record<string, string> = { ...rateHeaders, "x-rate-limit-remaining": "0" };
        if (fault.retryAfterSeconds !== undefined)
          headers["retry-after"] = String(fault.retryAfterSeconds);
        if (fault.resetInSeconds !== undefined) {
          headers["x-rate-limit-reset"] = String(Math.floor(now() / 1000) + fault.resetInSeconds);
        }
        res.writeHead(429, { "content-type": "application/json", ...headers });
        res.end(JSON.stringify({ errors: ["Rate limit exceeded"] }));
        return true;
      }
      case "delay":
        await new Promise((resolve) => setTimeout(resolve, fault.ms));
        return res.destroyed;
      case "hang":
        return true;
      case "next-link": {
        const body = render();
        if (!("text" in body)) return false;
        record.status = 200;
        const page = JSON.parse(body.text) as { links: { next: string | null } };
        page.links.next = fault.href;
        res.writeHead(200, { "content-type": "application/json", ...rateHeaders });
        res.end(JSON.stringify(page));
        return true;
      }
      case "truncate":
      case "disconnect": {
        const body = render();
        const text = "text" in body ? body.text : JSON.stringify({ errors: [body.error] });
        record.status = 200;
        res.writeHead(200, { "content-type": "application/json", ...rateHeaders });
        res.write(text.slice(0, Math.floor(text.length / 2)));
        if (fault.kind === "truncate") res.end();
        else setImmediate(() => res.destroy());
        return true;
      }
    }
  };

  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  const base = `${origin}${basePath}`;
  return {
    url: base,
    dataset,
    requests,
    inject(fault, injectOptions = {}) {
      rules.push({
        fault,
        times: injectOptions.times ?? 1,
        ...(injectOptions.page === undefined ? {} : { page: injectOptions.page }),
      });
    },
    clearFaults() {
      rules.length = 0;
    },
    onRequest(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface PageQuery {
  start: string;
  end: string;
  inclusive: boolean;
  limit: number;
  page: number;
  groupings: string[];
  desc: boolean;
}

function buildPage(dataset: CostDataset, url: URL, q: PageQuery): string {
  const firstIndex = Math.max(0, daysBetween(dataset.firstDay, q.start) - 1);
  let lastIndex = Math.min(dataset.days - 1, daysBetween(dataset.firstDay, q.end) - 1);
  if (!q.inclusive) lastIndex -= 1;
  const inData = q.start <= dataset.lastDay && q.end >= dataset.firstDay;
  const dayCount = inData ? Math.max(0, lastIndex - firstIndex + 1) : 0;
  const total = dayCount * dataset.rowsPerDay;
  const from = (q.page - 1) * q.limit;
  const to = Math.min(total, from + q.limit);
  const costs: string[] = [];
  const tails = dimensionTails(dataset, q.groupings);
  for (let i = from; i < to; i += 1) {
    const position = q.desc ? total - 1 - i : i;
    const dayIndex = firstIndex + Math.floor(position / dataset.rowsPerDay);
    const resourceIndex = position % dataset.rowsPerDay;
    const row = dataset.row(dayIndex, resourceIndex);
    if (!row) continue;
    const usage =
      row.usage_amount === undefined
        ? ""
        : `,"usage_amount":"${row.usage_amount}","usage_unit":${JSON.stringify(row.usage_unit)}`;
    costs.push(
      `{"accrued_at":"${row.accrued_at}","amount":"${row.amount}","currency":"${row.currency}"${tails[resourceIndex]}${usage}}`,
    );
  }
  const link = (page: number) => {
    const next = new URL(url);
    next.searchParams.set("page", String(page));
    return next.toString();
  };
  const lastPage = Math.max(1, Math.ceil(total / q.limit));
  const links = {
    self: link(q.page),
    first: link(1),
    next: q.page < lastPage ? link(q.page + 1) : null,
    last: link(lastPage),
    prev: q.page > 1 ? link(q.page - 1) : null,
  };
  const totalCost = { amount: "0.0", currency: dataset.currency };
  return `{"links":${JSON.stringify(links)},"total_cost":${JSON.stringify(totalCost)},"costs":[${costs.join(",")}]}`;
}

const tailCache = new WeakMap<CostDataset, Map<string, string[]>>();

/** Per resource, the JSON of the fields the groupings ask for, built once per dataset and groupings. */
function dimensionTails(dataset: CostDataset, groupings: readonly string[]): string[] {
  let byGroupings = tailCache.get(dataset);
  if (!byGroupings) {
    byGroupings = new Map();
    tailCache.set(dataset, byGroupings);
  }
  const key = groupings.join(",");
  const cached = byGroupings.get(key);
  if (cached) return cached;
  const tails = dataset.resources.map((r) => {
    const fields: Record<string, unknown> = {};
    if (groupings.includes("provider")) fields.provider = r.provider;
    if (groupings.includes("account_id")) fields.account_id = r.accountId;
    if (groupings.includes("service")) fields.service = r.service;
    if (groupings.includes("region")) fields.region = r.region;
    if (groupings.includes("resource_id")) fields.resource_id = r.resourceId;
    fields.tags = r.tags;
    return `,${JSON.stringify(fields).slice(1, -1)}`;
  });
  byGroupings.set(key, tails);
  return tails;
}
