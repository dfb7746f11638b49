import {
  BrokenCircuitError,
  ConsecutiveBreaker,
  circuitBreaker,
  handleWhen,
  retry,
  wrap,
} from "cockatiel";
import type { CostScope } from "./credentials.js";
import { createVendorBackoff } from "./vendor-backoff.js";
import { forbiddenMessage, unauthorizedMessage, VendorError } from "./vendor-error.js";

/** Options of `createVendorClient`. */
export interface VendorClientOptions {
  /** Vendor API base URL without trailing slash; requests go to `<baseUrl>/costs`. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer`. */
  readonly bearerToken: string;
  /** The report or workspace to read. */
  readonly scope: CostScope;
  /** Per-request time limit, body included. */
  readonly timeoutMs: number;
  /** Attempts per request, the first one included. */
  readonly maxAttempts: number;
  /** First retry delay before jitter. */
  readonly retryInitialDelayMs: number;
  /** Largest computed retry delay. */
  readonly retryMaxDelayMs: number;
  /** Longest 429 wait honoured; a longer one fails with `rate_limit_too_long`. */
  readonly rateLimitMaxWaitMs: number;
  /** Consecutive vendor-down failures that open the breaker. */
  readonly breakerFailures: number;
  /** Time the breaker stays open before a trial request. */
  readonly breakerHalfOpenMs: number;
  /** Largest response body accepted. Default 64 MiB. */
  readonly maxBodyBytes?: number;
  /** Default: the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** Wall clock for `x-rate-limit-reset`. Default `Date.now`. */
  readonly now?: () => number;
  /** Called before each retry wait, e.g. to log it. */
  readonly onRetry?: (event: RetryEvent) => void;
}

/** One retry about to happen. */
export interface RetryEvent {
  /** The retry number, from 1. */
  readonly attempt: number;
  /** The wait before it. */
  readonly delayMs: number;
  /** Why: the failure's message (never contains a token). */
  readonly reason: string;
  /** The failure's kind. */
  readonly kind: string;
}

/** A range of days to read. */
export interface CostQuery {
  /** First day, `YYYY-MM-DD`. */
  readonly startDay: string;
  /** Last day, `YYYY-MM-DD`, inclusive. */
  readonly endDay: string;
  /** Dimensions sent as `groupings`. */
  readonly groupings: readonly string[];
  /** Rows per page (`limit`). */
  readonly pageSize: number;
}

/** One page of the vendor's answer, rows not yet validated. */
export interface CostPage {
  /** 1-based position in this query's pages. */
  readonly page: number;
  /** The `costs` array as sent. */
  readonly rows: readonly unknown[];
}

/** Outcome of a single credential probe. */
export interface ProbeResult {
  /** HTTP status received. */
  readonly status: number;
  /** 200/400: accepted; 401/403: rejected; anything else: undetermined. */
  readonly verdict: "accepted" | "rejected" | "undetermined";
}

/** The vendor cost API, with retries, rate-limit waits and a circuit breaker applied. */
export interface VendorClient {
  /**
   * Streams the pages of a range, following `links.next`. At most two pages are in memory: the
   * one handed out and the next one, requested in advance.
   */
  costPages(query: CostQuery, signal?: AbortSignal): AsyncGenerator<CostPage>;
  /** Exactly one request to the costs path, without retries, to test the credentials. */
  probe(signal?: AbortSignal): Promise<ProbeResult>;
  /** HTTP requests made and retries performed so far. */
  readonly stats: { readonly requests: number; readonly retries: number };
}

/** Creates the vendor client. */
export function createVendorClient(options: VendorClientOptions): VendorClient {
  const doFetch = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;
  const maxBodyBytes = options.maxBodyBytes ?? 64 * 1024 * 1024;
  const costsUrl = new URL(`${options.baseUrl}/costs`);
  const stats = { requests: 0, retries: 0 };

  const retryPolicy = retry(
    handleWhen((e) => e instanceof VendorError && e.transient),
    {
      maxAttempts: Math.max(0, options.maxAttempts - 1),
      backoff: createVendorBackoff({
        initialDelayMs: options.retryInitialDelayMs,
        maxDelayMs: options.retryMaxDelayMs,
      }),
    },
  );
  retryPolicy.onRetry((event) => {
    stats.retries += 1;
    const error = "error" in event ? event.error : undefined;
    options.onRetry?.({
      attempt: event.attempt,
      delayMs: event.delay,
      reason: error instanceof Error ? error.message : "unexpected answer",
      kind: error instanceof VendorError ? error.kind : "unknown",
    });
  });
  const breaker = circuitBreaker(
    handleWhen((e) => e instanceof VendorError && e.vendorDown),
    {
      halfOpenAfter: options.breakerHalfOpenMs,
      breaker: new ConsecutiveBreaker(options.breakerFailures),
    },
  );
  const policy = wrap(retryPolicy, breaker);

  const send = async (url: URL, signal: AbortSignal | undefined): Promise<Response> => {
    stats.requests += 1;
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      const response = await doFetch(url, {
        headers: {
          authorization: `Bearer ${options.bearerToken}`,
          accept: "application/json",
        },
        redirect: "error",
        signal: combined,
      });
      return response;
    } catch (error) {
      throw classifyFetchFailure(error, signal, timeout);
    }
  };

  const getJson = async (url: URL, signal: AbortSignal | undefined): Promise<unknown> => {
    try {
      return await policy.execute(async () => {
        const response = await send(url, signal);
        const body = await readBody(response, maxBodyBytes, signal, options.timeoutMs);
        if (response.status === 200) {
          try {
            return JSON.parse(body) as unknown;
          } catch (cause) {
            throw new VendorError(
              "truncated",
              "the vendor sent an incomplete or invalid JSON body",
              {
                status: 200,
                cause,
              },
            );
          }
        }
        throw errorFromStatus(response, body, now(), options.rateLimitMaxWaitMs);
      }, signal);
    } catch (error) {
      if (error instanceof BrokenCircuitError) {
        throw new VendorError(
          "circuit_open",
          `the vendor looks down (${options.breakerFailures} consecutive failures): the circuit breaker is open; stopping instead of retrying`,
          { cause: error },
        );
      }
      throw error;
    }
  };

  const scopeParam = options.scope.kind === "cost_report" ? "cost_report_token" : "workspace_token";

  return {
    stats,
    async *costPages(query, signal) {
      const first = new URL(costsUrl);
      first.searchParams.set(scopeParam, options.scope.token);
      first.searchParams.set("start_date", query.startDay);
      first.searchParams.set("end_date", query.endDay);
      first.searchParams.set("date_bin", "day");
      first.searchParams.set("groupings", query.groupings.join(","));
      first.searchParams.set("limit", String(query.pageSize));
      first.searchParams.set("order", "asc");
      first.searchParams.set("page", "1");
      const visited = new Set<string>([first.href]);
      // The next page is requested while the caller stores the current one (one page ahead),
      // so the vendor's and the store's time overlap; stopping early aborts the read-ahead.
      const readAhead = new AbortController();
      const combined = signal ? AbortSignal.any([signal, readAhead.signal]) : readAhead.signal;
      const request = (url: URL) => {
        const body = getJson(url, combined);
        body.catch(() => {});
        return body;
      };
      let current: { url: URL; body: Promise<unknown> } | undefined = {
        url: first,
        body: request(first),
      };
      let page = 0;
      try {
        while (current !== undefined) {
          page += 1;
          const { rows, next } = parseCostsBody(await current.body);
          const nextUrl: URL | undefined =
            next === undefined ? undefined : resolveNext(next, current.url, costsUrl);
          if (nextUrl !== undefined && visited.has(nextUrl.href)) {
            throw new VendorError(
              "invalid_response",
              "the vendor's links.next points back to a page already read",
            );
          }
          if (nextUrl !== undefined) visited.add(nextUrl.href);
          current = nextUrl === undefined ? undefined : { url: nextUrl, body: request(nextUrl) };
          yield { page, rows };
        }
      } finally {
        readAhead.abort(new Error("page read-ahead no longer needed"));
      }
    },
    async probe(signal) {
      const url = new URL(costsUrl);
      const today = new Date(now()).toISOString().slice(0, 10);
      url.searchParams.set(scopeParam, options.scope.token);
      url.searchParams.set("start_date", today);
      url.searchParams.set("end_date", today);
      url.searchParams.set("date_bin", "day");
      url.searchParams.set("limit", "1");
      const response = await send(url, signal);
      await response.body?.cancel().catch(() => {});
      const status = response.status;
      const verdict =
        status === 200 || status === 400
          ? "accepted"
          : status === 401 || status === 403
            ? "rejected"
            : "undetermined";
      return { status, verdict };
    },
  };
}

function parseCostsBody(body: unknown): { rows: readonly unknown[]; next: string | undefined } {
  if (
    typeof body !== "object" ||
    body === null ||
    !Array.isArray((body as { costs?: unknown }).costs)
  ) {
    throw new VendorError("invalid_response", "the vendor's answer has no costs array");
  }
  const links = (body as { links?: unknown }).links;
  const next =
    typeof links === "object" && links !== null ? (links as { next?: unknown }).next : undefined;
  if (next !== undefined && next !== null && typeof next !== "string") {
    throw new VendorError("invalid_response", "the vendor's links.next is not a string");
  }
  return {
    rows: (body as { costs: unknown[] }).costs,
    next: typeof next === "string" && next !== "" ? next : undefined,
  };
}

function resolveNext(next: string, current: URL, costsUrl: URL): URL {
  let url: URL;
  try {
    url = new URL(next, current);
  } catch {
    throw new VendorError("invalid_response", "the vendor's links.next is not a URL");
  }
  // The bearer token goes with every request: never follow a link to another host.
  if (url.origin !== costsUrl.origin) {
    throw new VendorError(
      "invalid_response",
      `the vendor's links.next leads to another origin (${url.origin}); refusing to send the token there`,
    );
  }
  return url;
}

function classifyFetchFailure(
  error: unknown,
  outer: AbortSignal | undefined,
  timeout: AbortSignal,
): unknown {
  if (outer?.aborted) return outer.reason ?? error;
  if (timeout.aborted) {
    return new VendorError("timeout", "the vendor did not answer in time", { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new VendorError("network", `the vendor could not be reached (${message})`, {
    cause: error,
  });
}

async function readBody(
  response: Response,
  maxBytes: number,
  outer: AbortSignal | undefined,
  timeoutMs: number,
): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw new VendorError(
      "invalid_response",
      `the vendor's answer is larger than ${maxBytes} bytes`,
    );
  }
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw new VendorError(
          "invalid_response",
          `the vendor's answer is larger than ${maxBytes} bytes`,
        );
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof VendorError) throw error;
    if (outer?.aborted) throw outer.reason ?? error;
    const name = (error as { name?: string }).name;
    if (name === "TimeoutError" || name === "AbortError") {
      throw new VendorError(
        "timeout",
        `the vendor's answer did not complete within ${timeoutMs} ms`,
        {
          cause: error,
        },
      );
    }
    throw new VendorError("truncated", "the vendor's answer was cut off", { cause: error });
  }
  return Buffer.concat(chunks, size).toString("utf8");
}

function errorFromStatus(
  response: Response,
  body: string,
  now: number,
  maxWaitMs: number,
): VendorError {
  const status = response.status;
  if (status === 401) return new VendorError("unauthorized", unauthorizedMessage, { status });
  if (status === 403) return new VendorError("forbidden", forbiddenMessage, { status });
  if (status === 429) {
    const wait = requestedWaitMs(response.headers, now);
    if (wait !== undefined && wait > maxWaitMs) {
      return new VendorError(
        "rate_limit_too_long",
        `the vendor's rate limit resets in ${Math.ceil(wait / 1000)} s, longer than rate_limit_max_wait_seconds (${Math.round(maxWaitMs / 1000)} s); run the pull again later`,
        { status, retryAfterMs: wait },
      );
    }
    return new VendorError("rate_limited", "the vendor rate-limited the request (HTTP 429)", {
      status,
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
    });
  }
  if (status >= 500) {
    return new VendorError("unavailable", `the vendor failed (HTTP ${status})`, { status });
  }
  const detail = vendorMessages(body);
  if (status === 400) {
    return new VendorError("bad_request", `the vendor rejected the request (HTTP 400)${detail}`, {
      status,
    });
  }
  if (status === 404) {
    return new VendorError(
      "not_found",
      `the vendor does not know the cost report or workspace (HTTP 404)${detail}`,
      { status },
    );
  }
  return new VendorError("invalid_response", `the vendor answered HTTP ${status}${detail}`, {
    status,
  });
}

const controlCharacters = /\p{Cc}/gu;

/** The vendor's `{"errors": [...]}` messages, shortened and stripped of control characters. */
function vendorMessages(body: string): string {
  try {
    const parsed = JSON.parse(body) as { errors?: unknown };
    if (Array.isArray(parsed.errors)) {
      const text = parsed.errors
        .filter((e): e is string => typeof e === "string")
        .join("; ")
        .replace(controlCharacters, " ")
        .slice(0, 500);
      return text === "" ? "" : `: ${text}`;
    }
  } catch {
    // Not JSON: the status alone is reported.
  }
  return "";
}

/**
 * The wait a 429 asks for: `Retry-After` (seconds or HTTP date) when present, else
 * `x-rate-limit-reset` (epoch seconds) minus now; undefined when neither is usable.
 */
export function requestedWaitMs(headers: Headers, now: number): number | undefined {
  // Retry-After is specific to this answer; x-rate-limit-reset (on every answer) is the fallback.
  const retryAfter = headers.get("retry-after")?.trim();
  if (retryAfter !== undefined && retryAfter !== "") {
    if (/^\d{1,9}$/.test(retryAfter)) return Number(retryAfter) * 1000;
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  const reset = headers.get("x-rate-limit-reset")?.trim();
  if (reset !== undefined && /^\d{1,12}$/.test(reset)) {
    return Math.max(0, Number(reset) * 1000 - now);
  }
  return undefined;
}
