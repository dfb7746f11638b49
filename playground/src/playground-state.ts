import type { ClientProtocol } from "@costplugin/client";

/** A tag as the form holds it: rows may be half filled while the user types. */
export type TagRow = readonly [key: string, value: string];

/** The resource form: the fields of a costplugin.v1 ResourceDescriptor. */
export interface ResourceInput {
  readonly provider: string;
  readonly resourceType: string;
  readonly sku: string;
  readonly region: string;
  readonly tags: readonly TagRow[];
}

/** Columns the comparison table sorts by. */
export type SortKey = "resource" | "unitPrice" | "costPerMonth";

/** The comparison table's order. */
export interface SortOrder {
  readonly key: SortKey;
  readonly direction: "asc" | "desc";
}

/** The actual-costs form: GetActualCost's request as dates a person picks. */
export interface ActualCostInput {
  readonly resourceId: string;
  /** First day, `YYYY-MM-DD` (UTC). */
  readonly startDate: string;
  /** Last day, `YYYY-MM-DD` (UTC), included. */
  readonly endDate: string;
  readonly tags: readonly TagRow[];
}

/** Windows the SLI panel offers, in minutes. */
export const sliWindows = [5, 60, 1440] as const;

/** One of `sliWindows`. */
export type SliWindow = (typeof sliWindows)[number];

/** Everything a shared link restores: connection, forms, pinned resources and table order. */
export interface PlaygroundState {
  readonly baseUrl: string;
  readonly protocol: ClientProtocol;
  readonly resource: ResourceInput;
  readonly pins: readonly ResourceInput[];
  readonly sort: SortOrder;
  readonly actual: ActualCostInput;
  readonly sliWindowMinutes: SliWindow;
}

/** The protocols the switch offers, with the label a person reads. */
export const protocolChoices: ReadonlyArray<{ value: ClientProtocol; label: string }> = [
  { value: "connect-json", label: "Connect (JSON)" },
  { value: "connect-binary", label: "Connect (binary)" },
  { value: "grpc-web", label: "gRPC-web" },
];

/** An empty resource form. */
export const emptyResource: ResourceInput = {
  provider: "",
  resourceType: "",
  sku: "",
  region: "",
  tags: [],
};

/** `YYYY-MM-DD` of a date in UTC. */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * The state of a page opened without parameters: the plugin at `baseUrl`, Connect JSON, a
 * well-known resource to start from, and the last seven days for actual costs.
 */
export function defaultState(baseUrl: string, now: Date): PlaygroundState {
  const dayMs = 86_400_000;
  return {
    baseUrl,
    protocol: "connect-json",
    resource: {
      provider: "aws",
      resourceType: "ec2",
      sku: "t3.micro",
      region: "us-east-1",
      tags: [],
    },
    pins: [],
    sort: { key: "costPerMonth", direction: "asc" },
    actual: {
      resourceId: "",
      startDate: isoDay(new Date(now.getTime() - 6 * dayMs)),
      endDate: isoDay(now),
      tags: [],
    },
    sliWindowMinutes: 60,
  };
}

/** Tags rows reduced to a map: blank keys dropped, the last duplicate wins. */
export function tagsFromRows(rows: readonly TagRow[]): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const [key, value] of rows) {
    const trimmed = key.trim();
    if (trimmed !== "") tags[trimmed] = value;
  }
  return tags;
}

/** A short human label of a resource, e.g. `aws ec2 t3.micro us-east-1`. */
export function resourceLabel(resource: ResourceInput): string {
  return [resource.provider, resource.resourceType, resource.sku, resource.region]
    .filter((part) => part !== "")
    .join(" ");
}

/** Whether two resources describe the same thing (same fields and tags). */
export function sameResource(a: ResourceInput, b: ResourceInput): boolean {
  return (
    a.provider === b.provider &&
    a.resourceType === b.resourceType &&
    a.sku === b.sku &&
    a.region === b.region &&
    JSON.stringify(tagsFromRows(a.tags)) === JSON.stringify(tagsFromRows(b.tags))
  );
}
