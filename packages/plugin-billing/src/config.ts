import { readFile } from "node:fs/promises";
import { parseDocument } from "yaml";
import { ConfigError } from "./config-error.js";
import type { ConfigValue } from "./config-value.js";
import { configValueFromText, isMalformedReference } from "./config-value.js";

/** The vendor's public API address, used when neither the file nor the environment names one. */
export const defaultVendorApiUrl = "https://api.vantage.sh/v2";

/** Where the embedded store lives when nothing else is configured (relative to the working directory). */
export const defaultDatabaseUrl = "./data/billing.db";

/** The dimensions the plugin asks the vendor to group by unless configured otherwise. */
export const defaultGroupings: readonly string[] = [
  "provider",
  "account_id",
  "service",
  "region",
  "resource_id",
];

/** The validated configuration of the billing plugin: parsed once, at the edge. */
export interface BillingConfig {
  /** Configuration format version; always `"0.1"`. */
  readonly version: "0.1";
  /** Name of the data source; stored with every row and answered as `source` by GetActualCost. */
  readonly source: string;
  /** The vendor API base URL, without a trailing slash; the plugin calls `<url>/costs`. */
  readonly vendorApiUrl: string;
  /** A file path (embedded SQLite) or a `postgres://` URL. */
  readonly databaseUrl: string;
  /** Cost granularity; only `day` exists. */
  readonly granularity: "day";
  /** Dimensions sent as `groupings`; always includes `resource_id`. */
  readonly groupings: readonly string[];
  /** Days before the high-water mark that every incremental pull reads again. */
  readonly lookbackDays: number;
  /** Days the first pull reads when the store is empty and no range is given. */
  readonly initialDays: number;
  /** Days per chunk: the unit committed and recorded as done. */
  readonly chunkDays: number;
  /** Rows per vendor page (`limit`), at most 5000. */
  readonly pageSize: number;
  /** Time allowed for one vendor request, body included. */
  readonly requestTimeoutMs: number;
  /** Attempts per vendor request, the first one included. */
  readonly maxAttempts: number;
  /** First retry delay before jitter. */
  readonly retryInitialDelayMs: number;
  /** Largest retry delay. */
  readonly retryMaxDelayMs: number;
  /** Longest wait honoured for a 429; a longer requested wait fails the pull instead. */
  readonly rateLimitMaxWaitMs: number;
  /** Consecutive vendor failures that open the circuit breaker. */
  readonly circuitBreakerFailures: number;
  /** How long the breaker stays open before one trial request. */
  readonly circuitBreakerHalfOpenMs: number;
  /** Age of the last successful pull beyond which HealthCheck answers NOT_SERVING. */
  readonly staleAfterMs: number;
  /** Days of recent actual cost the projection averages. */
  readonly projectionDays: number;
  /**
   * Bytes of the embedded store's file `serve` reads through memory mapping (0: read with
   * system calls). Mapped pages are the operating system's file cache: they show in the
   * process's resident size but are shared and reclaimable.
   */
  readonly serveMmapBytes: number;
  /** Accepted prefixes of cost report and workspace tokens. */
  readonly tokenPrefixes: {
    readonly costReport: readonly string[];
    readonly workspace: readonly string[];
  };
  /** Minimum characters after a token's prefix (whole token for the API token). */
  readonly tokenMinLength: number;
  /** The credential settings as written; resolved by `resolveCredentials`. */
  readonly credentials: {
    readonly token?: ConfigValue;
    readonly costReportToken?: ConfigValue;
    readonly workspaceToken?: ConfigValue;
  };
}

/** Options of `parseBillingConfig` and `loadBillingConfig`. */
export interface ParseConfigOptions {
  /** The environment `${VAR}` references and override variables are read from. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

const topLevelKeys = ["version", "source", "credentials", "params"];
const credentialKeys = ["token"];

interface NumberRule {
  readonly key: string;
  readonly min: number;
  readonly max: number;
  readonly fallback: number;
}

const numberRules = {
  lookback_days: { key: "lookback_days", min: 0, max: 90, fallback: 3 },
  initial_days: { key: "initial_days", min: 1, max: 3660, fallback: 30 },
  chunk_days: { key: "chunk_days", min: 1, max: 92, fallback: 7 },
  page_size: { key: "page_size", min: 1, max: 5000, fallback: 5000 },
  request_timeout_seconds: { key: "request_timeout_seconds", min: 1, max: 600, fallback: 30 },
  max_attempts: { key: "max_attempts", min: 1, max: 20, fallback: 5 },
  retry_initial_delay_ms: { key: "retry_initial_delay_ms", min: 1, max: 60_000, fallback: 500 },
  retry_max_delay_ms: { key: "retry_max_delay_ms", min: 1, max: 600_000, fallback: 30_000 },
  rate_limit_max_wait_seconds: {
    key: "rate_limit_max_wait_seconds",
    min: 0,
    max: 3600,
    fallback: 120,
  },
  circuit_breaker_failures: { key: "circuit_breaker_failures", min: 1, max: 100, fallback: 5 },
  circuit_breaker_half_open_seconds: {
    key: "circuit_breaker_half_open_seconds",
    min: 1,
    max: 3600,
    fallback: 60,
  },
  stale_after_hours: { key: "stale_after_hours", min: 1, max: 24 * 366, fallback: 48 },
  projection_days: { key: "projection_days", min: 1, max: 90, fallback: 7 },
  serve_mmap_mb: { key: "serve_mmap_mb", min: 0, max: 65_536, fallback: 1024 },
  token_min_length: { key: "token_min_length", min: 1, max: 512, fallback: 16 },
} satisfies Record<string, NumberRule>;

const paramKeys = [
  "cost_report_token",
  "workspace_token",
  "granularity",
  "vendor_api_url",
  "database_url",
  "groupings",
  "cost_report_token_prefixes",
  "workspace_token_prefixes",
  ...Object.keys(numberRules),
];

const baseDimensions = new Set(["provider", "account_id", "service", "region", "resource_id"]);

/** Reads and validates the YAML configuration file at `path`. */
export async function loadBillingConfig(
  path: string,
  options: ParseConfigOptions,
): Promise<BillingConfig> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new ConfigError(`cannot read the configuration file ${path} (${code})`);
  }
  return parseBillingConfigText(text, options);
}

/** Parses YAML text into a validated configuration; every problem is reported at once. */
export function parseBillingConfigText(text: string, options: ParseConfigOptions): BillingConfig {
  const document = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) {
    // The YAML error text may quote the offending line (which could hold a literal token):
    // report only its position.
    const first = document.errors[0];
    const where = first?.linePos?.[0] ? ` at line ${first.linePos[0].line}` : "";
    throw new ConfigError(`the configuration file is not valid YAML${where}`);
  }
  return parseBillingConfig(document.toJS(), options);
}

/** Validates an already-parsed configuration document. */
export function parseBillingConfig(raw: unknown, options: ParseConfigOptions): BillingConfig {
  const problems: string[] = [];
  if (!isRecord(raw)) throw new ConfigError("the configuration file must be a YAML mapping");
  const unknown = [
    ...unknownKeys(raw, topLevelKeys, ""),
    ...(isRecord(raw.credentials)
      ? unknownKeys(raw.credentials, credentialKeys, "credentials.")
      : []),
    ...(isRecord(raw.params) ? unknownKeys(raw.params, paramKeys, "params.") : []),
  ];
  if (unknown.length > 0) {
    throw new ConfigError(
      `unknown configuration key${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}`,
    );
  }
  if (raw.credentials !== undefined && raw.credentials !== null && !isRecord(raw.credentials)) {
    problems.push("credentials must be a mapping");
  }
  if (raw.params !== undefined && raw.params !== null && !isRecord(raw.params)) {
    problems.push("params must be a mapping");
  }
  const credentials = isRecord(raw.credentials) ? raw.credentials : {};
  const params = isRecord(raw.params) ? raw.params : {};

  if (raw.version === undefined) problems.push("version is required (use 0.1)");
  else if (String(raw.version) !== "0.1") problems.push(`version must be 0.1`);

  let source = "";
  if (typeof raw.source !== "string" || raw.source.trim() === "") {
    problems.push("source is required (the name of the data source)");
  } else if (raw.source.length > 128 || /\p{Cc}/u.test(raw.source)) {
    problems.push("source must be at most 128 printable characters");
  } else {
    source = raw.source.trim();
  }

  const granularity = params.granularity ?? "day";
  if (granularity !== "day")
    problems.push('params.granularity must be "day" (the only one supported)');

  const secret = (value: unknown, key: string): ConfigValue | undefined => {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "string") {
      problems.push(`${key} must be a string`);
      return undefined;
    }
    if (isMalformedReference(value)) {
      problems.push(`${key} must be either a literal or exactly one \${ENV_VAR} reference`);
      return undefined;
    }
    return configValueFromText(value);
  };
  const plain = (value: unknown, key: string, variable: string, fallback: string): string => {
    const override = options.env[variable];
    if (override !== undefined && override !== "") return override;
    if (value === undefined || value === null) return fallback;
    if (typeof value !== "string" || value.trim() === "") {
      problems.push(`${key} must be a non-empty string`);
      return fallback;
    }
    const parsed = configValueFromText(value);
    if (parsed.kind === "literal") return parsed.value.trim();
    const resolved = options.env[parsed.variable];
    if (resolved === undefined || resolved === "") {
      problems.push(`${parsed.variable} is not set (referenced by ${key})`);
      return fallback;
    }
    return resolved;
  };
  const integer = (rule: NumberRule): number => {
    const value = params[rule.key];
    if (value === undefined || value === null) return rule.fallback;
    if (
      typeof value !== "number" ||
      !Number.isInteger(value) ||
      value < rule.min ||
      value > rule.max
    ) {
      problems.push(`params.${rule.key} must be an integer from ${rule.min} to ${rule.max}`);
      return rule.fallback;
    }
    return value;
  };
  const prefixes = (key: string, fallback: string[]): string[] => {
    const value = params[key];
    if (value === undefined || value === null) return fallback;
    const list = typeof value === "string" ? value.split(",").map((p) => p.trim()) : value;
    if (
      !Array.isArray(list) ||
      list.length === 0 ||
      !list.every((p) => typeof p === "string" && /^[A-Za-z0-9_-]{1,32}$/.test(p))
    ) {
      problems.push(`params.${key} must be a non-empty list of prefixes such as "cr_"`);
      return fallback;
    }
    return list as string[];
  };

  const vendorApiUrl = validateVendorUrl(
    plain(
      params.vendor_api_url,
      "params.vendor_api_url",
      "COSTPLUGIN_BILLING_API_URL",
      defaultVendorApiUrl,
    ),
    problems,
  );
  const databaseUrl = plain(
    params.database_url,
    "params.database_url",
    "COSTPLUGIN_BILLING_DATABASE_URL",
    defaultDatabaseUrl,
  );
  const groupings = validateGroupings(params.groupings, problems);

  const config: BillingConfig = {
    version: "0.1",
    source,
    vendorApiUrl,
    databaseUrl,
    granularity: "day",
    groupings,
    lookbackDays: integer(numberRules.lookback_days),
    initialDays: integer(numberRules.initial_days),
    chunkDays: integer(numberRules.chunk_days),
    pageSize: integer(numberRules.page_size),
    requestTimeoutMs: integer(numberRules.request_timeout_seconds) * 1000,
    maxAttempts: integer(numberRules.max_attempts),
    retryInitialDelayMs: integer(numberRules.retry_initial_delay_ms),
    retryMaxDelayMs: integer(numberRules.retry_max_delay_ms),
    rateLimitMaxWaitMs: integer(numberRules.rate_limit_max_wait_seconds) * 1000,
    circuitBreakerFailures: integer(numberRules.circuit_breaker_failures),
    circuitBreakerHalfOpenMs: integer(numberRules.circuit_breaker_half_open_seconds) * 1000,
    staleAfterMs: integer(numberRules.stale_after_hours) * 3_600_000,
    projectionDays: integer(numberRules.projection_days),
    serveMmapBytes: integer(numberRules.serve_mmap_mb) * 1024 * 1024,
    tokenPrefixes: {
      costReport: prefixes("cost_report_token_prefixes", ["cr_"]),
      workspace: prefixes("workspace_token_prefixes", ["ws_"]),
    },
    tokenMinLength: integer(numberRules.token_min_length),
    credentials: {
      token: secret(credentials.token, "credentials.token"),
      costReportToken: secret(params.cost_report_token, "params.cost_report_token"),
      workspaceToken: secret(params.workspace_token, "params.workspace_token"),
    },
  };
  if (problems.length > 0) {
    throw new ConfigError(`invalid configuration: ${problems.join("; ")}`);
  }
  return config;
}

function validateVendorUrl(text: string, problems: string[]): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    problems.push("params.vendor_api_url must be an absolute http(s) URL");
    return text;
  }
  const loopback = ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
    problems.push(
      "params.vendor_api_url must use https (plain http is accepted only for 127.0.0.1 and localhost, so the token never crosses a network unencrypted)",
    );
  }
  if (url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") {
    problems.push("params.vendor_api_url must not carry credentials, a query or a fragment");
  }
  return url.toString().replace(/\/+$/, "");
}

function validateGroupings(value: unknown, problems: string[]): readonly string[] {
  if (value === undefined || value === null) return defaultGroupings;
  const list = typeof value === "string" ? value.split(",").map((g) => g.trim()) : value;
  if (!Array.isArray(list) || !list.every((g) => typeof g === "string")) {
    problems.push("params.groupings must be a list or a comma-separated string");
    return defaultGroupings;
  }
  const bad = list.filter((g) => !baseDimensions.has(g) && !/^tag:[^,\s]{1,128}$/.test(g));
  if (bad.length > 0) {
    problems.push(
      `params.groupings has unknown dimensions ${bad.map((g) => JSON.stringify(g)).join(", ")} (allowed: ${[...baseDimensions].join(", ")}, tag:<key>)`,
    );
  }
  if (!list.includes("resource_id")) {
    problems.push("params.groupings must include resource_id (GetActualCost is per resource)");
  }
  return [...new Set(list as string[])];
}

function unknownKeys(record: Record<string, unknown>, allowed: string[], prefix: string): string[] {
  return Object.keys(record)
    .filter((key) => !allowed.includes(key))
    .map((key) => `${prefix}${key}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
