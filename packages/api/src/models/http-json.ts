import { ModelCallError } from "./model-provider.js";

/** Replaces every occurrence of each secret in `text` with `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join("[redacted]");
  }
  return out;
}

/** Options of `postJson`. */
export interface PostJsonOptions {
  /** Provider name for messages. */
  readonly provider: string;
  /** HTTP client. */
  readonly fetch: typeof fetch;
  /** Request URL. */
  readonly url: string;
  /** Request headers (credentials included). */
  readonly headers: Readonly<Record<string, string>>;
  /** JSON body. */
  readonly body: unknown;
  /** Aborts the request. */
  readonly signal: AbortSignal;
  /** Values to keep out of error messages (the API key). */
  readonly secrets: readonly string[];
}

const maxErrorBody = 300;

function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * POSTs JSON and returns the parsed JSON answer. Maps every failure to a `ModelCallError` whose
 * message names the provider and status and quotes at most a short, redacted part of the body.
 */
export async function postJson(options: PostJsonOptions): Promise<unknown> {
  let response: Response;
  try {
    response = await options.fetch(options.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        ...options.headers,
      },
      body: JSON.stringify(options.body),
      signal: options.signal,
      redirect: "error",
    });
  } catch (error) {
    throw networkError(options, error);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw networkError(options, error);
  }
  if (!response.ok) {
    const excerpt = redactSecrets(
      text.replace(/\s+/g, " ").slice(0, maxErrorBody),
      options.secrets,
    );
    throw new ModelCallError(
      `${options.provider} answered HTTP ${response.status}${excerpt ? `: ${excerpt}` : ""}`,
      { transient: isTransientStatus(response.status), status: response.status },
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ModelCallError(`${options.provider} answered with a body that is not JSON`, {
      transient: false,
      status: response.status,
    });
  }
}

function networkError(options: PostJsonOptions, error: unknown): ModelCallError {
  const reason = options.signal.reason;
  if (options.signal.aborted && reason instanceof Error && reason.name === "TimeoutError") {
    return new ModelCallError(`${options.provider} did not answer in time (${reason.message})`, {
      transient: true,
    });
  }
  if (options.signal.aborted) {
    return new ModelCallError(`${options.provider} call was cancelled`, { transient: false });
  }
  const message = redactSecrets(
    error instanceof Error
      ? ((error.cause as Error | undefined)?.message ?? error.message)
      : String(error),
    options.secrets,
  );
  return new ModelCallError(`${options.provider} could not be reached: ${message}`, {
    transient: true,
  });
}

/** Throws a non-transient `ModelCallError` saying the answer lacks `what`. */
export function malformed(provider: string, what: string): never {
  throw new ModelCallError(`${provider} answer is malformed: ${what}`, { transient: false });
}

/** Reads a non-negative integer token count, 0 when absent. */
export function tokenCount(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : 0;
}
