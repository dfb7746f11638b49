import type { ClientProtocol } from "@costplugin/client";
import {
  type ActualCostInput,
  defaultState,
  type PlaygroundState,
  protocolChoices,
  type ResourceInput,
  type SliWindow,
  type SortKey,
  sliWindows,
  type TagRow,
} from "./playground-state.js";

/** Longest text kept from one query parameter; a shared link is not a place for megabytes. */
const maxFieldLength = 256;
/** Most tag rows kept per form. */
const maxTags = 32;
/** Most pinned resources kept. */
const maxPins = 24;

const sortKeys: readonly SortKey[] = ["resource", "unitPrice", "costPerMonth"];
const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Reads the page state from a query string. Every parameter is optional and checked: an unknown
 * protocol, a non-http(s) plugin URL, a malformed date or an oversized value falls back to the
 * default instead of breaking the page.
 */
export function stateFromQuery(
  query: string,
  defaults: PlaygroundState = defaultState("", new Date()),
): PlaygroundState {
  const params = new URLSearchParams(query);
  const text = (name: string): string | undefined => {
    const value = params.get(name);
    return value === null ? undefined : value.slice(0, maxFieldLength);
  };
  const resource: ResourceInput = {
    provider: text("provider") ?? defaults.resource.provider,
    resourceType: text("type") ?? defaults.resource.resourceType,
    sku: text("sku") ?? defaults.resource.sku,
    region: text("region") ?? defaults.resource.region,
    tags: params.has("tag") ? tagRowsFromParams(params.getAll("tag")) : defaults.resource.tags,
  };
  const actual: ActualCostInput = {
    resourceId: text("rid") ?? defaults.actual.resourceId,
    startDate: day(text("from")) ?? defaults.actual.startDate,
    endDate: day(text("to")) ?? defaults.actual.endDate,
    tags: params.has("atag") ? tagRowsFromParams(params.getAll("atag")) : defaults.actual.tags,
  };
  return {
    baseUrl: httpUrl(text("url")) ?? defaults.baseUrl,
    protocol: protocol(text("protocol")) ?? defaults.protocol,
    resource,
    pins: params
      .getAll("pin")
      .slice(0, maxPins)
      .map(pinFromParam)
      .filter((pin): pin is ResourceInput => pin !== undefined),
    sort: sortFromParam(text("sort")) ?? defaults.sort,
    actual,
    sliWindowMinutes: sliWindow(text("sli")) ?? defaults.sliWindowMinutes,
  };
}

/**
 * Writes the page state as a query string. Values equal to `defaults` are left out so shared
 * links stay short; `stateFromQuery(queryFromState(s, d), d)` gives `s` back.
 */
export function queryFromState(state: PlaygroundState, defaults: PlaygroundState): string {
  const params = new URLSearchParams();
  const put = (name: string, value: string, fallback: string) => {
    if (value !== fallback) params.set(name, value);
  };
  put("url", state.baseUrl, defaults.baseUrl);
  put("protocol", state.protocol, defaults.protocol);
  put("provider", state.resource.provider, defaults.resource.provider);
  put("type", state.resource.resourceType, defaults.resource.resourceType);
  put("sku", state.resource.sku, defaults.resource.sku);
  put("region", state.resource.region, defaults.resource.region);
  for (const row of state.resource.tags) params.append("tag", tagParam(row));
  for (const pin of state.pins) params.append("pin", pinParam(pin));
  put(
    "sort",
    `${state.sort.key}.${state.sort.direction}`,
    `${defaults.sort.key}.${defaults.sort.direction}`,
  );
  put("rid", state.actual.resourceId, defaults.actual.resourceId);
  put("from", state.actual.startDate, defaults.actual.startDate);
  put("to", state.actual.endDate, defaults.actual.endDate);
  for (const row of state.actual.tags) params.append("atag", tagParam(row));
  put("sli", String(state.sliWindowMinutes), String(defaults.sliWindowMinutes));
  return params.toString();
}

function httpUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
    return value.replace(/\/+$/, "");
  } catch {
    return undefined;
  }
}

function protocol(value: string | undefined): ClientProtocol | undefined {
  return protocolChoices.find((choice) => choice.value === value)?.value;
}

function day(value: string | undefined): string | undefined {
  if (value === undefined || !dayPattern.test(value)) return undefined;
  return Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ? undefined : value;
}

function sliWindow(value: string | undefined): SliWindow | undefined {
  return sliWindows.find((minutes) => String(minutes) === value);
}

function sortFromParam(value: string | undefined): PlaygroundState["sort"] | undefined {
  const [key, direction] = (value ?? "").split(".");
  const sortKey = sortKeys.find((candidate) => candidate === key);
  if (sortKey === undefined || (direction !== "asc" && direction !== "desc")) return undefined;
  return { key: sortKey, direction };
}

function tagParam([key, value]: TagRow): string {
  return `${key}=${value}`;
}

function tagRowsFromParams(values: readonly string[]): TagRow[] {
  return values.slice(0, maxTags).map((value) => {
    const cut = value.indexOf("=");
    const row: TagRow = cut < 0 ? [value, ""] : [value.slice(0, cut), value.slice(cut + 1)];
    return [row[0].slice(0, maxFieldLength), row[1].slice(0, maxFieldLength)];
  });
}

// A pin is `provider|type|sku|region|k=v&k=v`, each part percent-encoded so any character
// (Pulumi tokens carry "/" and ":") survives.
function pinParam(pin: ResourceInput): string {
  const tags = pin.tags.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  return [pin.provider, pin.resourceType, pin.sku, pin.region]
    .map(encodeURIComponent)
    .concat(tags.join("&"))
    .join("|");
}

function pinFromParam(value: string): ResourceInput | undefined {
  const parts = value.slice(0, maxFieldLength * 6).split("|");
  if (parts.length !== 5) return undefined;
  try {
    const [provider, resourceType, sku, region] = parts.slice(0, 4).map(decodeURIComponent);
    const tags: TagRow[] = (parts[4] ?? "")
      .split("&")
      .filter((pair) => pair !== "")
      .slice(0, maxTags)
      .map((pair) => {
        const cut = pair.indexOf("=");
        const key = decodeURIComponent(cut < 0 ? pair : pair.slice(0, cut));
        const tagValue = cut < 0 ? "" : decodeURIComponent(pair.slice(cut + 1));
        return [key, tagValue] as const;
      });
    if (!provider || !resourceType) return undefined;
    return { provider, resourceType, sku: sku ?? "", region: region ?? "", tags };
  } catch {
    return undefined;
  }
}
