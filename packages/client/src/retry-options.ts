import { errorDetailFromError } from "./error-detail.js";
import { definedOnly, requireNumber } from "./option-validation.js";
import { isRetryableError } from "./retryable-error.js";

/**
 * How the client retries a failed call. Only errors `isRetryableError` accepts are retried, and
 * never past the call's deadline. Defaults follow the protocol's reference host.
 */
export interface RetryOptions {
  /** Attempts in total, the first call included. Default 3; 1 disables retries. */
  readonly maxAttempts?: number;
  /** Delay before the first retry, in milliseconds. Default 100. */
  readonly initialDelayMs?: number;
  /** Growth of the delay from one retry to the next. Default 2 (100, 200, 400 ms, ...). */
  readonly backoffFactor?: number;
  /**
   * Longest delay before a retry, in milliseconds. Default 30 000. The computed backoff is capped
   * at this value; a server's `retry_after_seconds` above it makes the client give up instead
   * (it neither waits longer than this nor comes back earlier than the server asked).
   */
  readonly maxDelayMs?: number;
  /**
   * Relative jitter applied to each computed delay: the delay is drawn uniformly from
   * `[delay * (1 - jitter), delay * (1 + jitter)]` (then capped at `maxDelayMs`), so that many
   * clients failing together do not retry in lockstep. Default 0.1; 0 disables jitter. Not
   * applied to a server's `retry_after_seconds`.
   */
  readonly jitter?: number;
}

/** RetryOptions with every default filled in and validated. */
export type ResolvedRetryOptions = Required<RetryOptions>;

/** The defaults of `RetryOptions`. */
export const defaultRetryOptions: ResolvedRetryOptions = Object.freeze({
  maxAttempts: 3,
  initialDelayMs: 100,
  backoffFactor: 2,
  maxDelayMs: 30_000,
  jitter: 0.1,
});

/** Fills in the defaults of `options` and rejects values that cannot work (RangeError). */
export function resolveRetryOptions(options: RetryOptions = {}): ResolvedRetryOptions {
  const resolved = { ...defaultRetryOptions, ...definedOnly(options) };
  requireNumber("retry.maxAttempts", resolved.maxAttempts, 1, 100, true);
  requireNumber("retry.initialDelayMs", resolved.initialDelayMs, 0, 2_147_483_647, false);
  requireNumber("retry.backoffFactor", resolved.backoffFactor, 1, 100, false);
  requireNumber("retry.maxDelayMs", resolved.maxDelayMs, 0, 2_147_483_647, false);
  requireNumber("retry.jitter", resolved.jitter, 0, 1, false);
  return resolved;
}

/**
 * The delay in milliseconds before the next attempt after `failedAttempts` attempts failed with
 * `error`, or `undefined` when the error must not be retried.
 *
 * A non-retryable error (see `isRetryableError`) gives `undefined`. A `retry_after_seconds` in the
 * error's ErrorDetail wins over the computed backoff, unless it is longer than `maxDelayMs` (then
 * `undefined`). Otherwise the delay is `initialDelayMs * backoffFactor^(failedAttempts - 1)`,
 * capped at `maxDelayMs`, jittered by `jitter`, capped again. The attempt budget
 * (`maxAttempts`) and the call's deadline are checked by the caller.
 */
export function retryDelayFor(
  error: unknown,
  failedAttempts: number,
  options: ResolvedRetryOptions,
  random: () => number = Math.random,
): number | undefined {
  if (!isRetryableError(error)) return undefined;
  const retryAfterSeconds = errorDetailFromError(error)?.retryAfterSeconds;
  if (retryAfterSeconds !== undefined && retryAfterSeconds >= 0) {
    const requested = retryAfterSeconds * 1000;
    return requested <= options.maxDelayMs ? requested : undefined;
  }
  const exponent = Math.max(0, failedAttempts - 1);
  const base = Math.min(
    options.maxDelayMs,
    options.initialDelayMs * options.backoffFactor ** exponent,
  );
  const spread = options.jitter * (2 * random() - 1);
  return Math.max(0, Math.min(options.maxDelayMs, Math.round(base * (1 + spread))));
}
