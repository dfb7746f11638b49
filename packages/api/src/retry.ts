import { ExponentialBackoff, handleWhen, retry } from "cockatiel";
import type { RetryOptions } from "./api-options.js";

/** Retry settings used when none are configured. */
export const defaultRetryOptions: RetryOptions = {
  maxAttempts: 3,
  initialDelayMs: 500,
  maxDelayMs: 10_000,
};

/**
 * Runs `fn` up to `maxAttempts` times, waiting with exponential backoff (with jitter) between
 * attempts, as long as `isTransient` says the failure may go away. `fn` receives the attempt
 * number, starting at 1.
 */
export async function withRetry<T>(
  options: RetryOptions,
  isTransient: (error: Error) => boolean,
  fn: (attempt: number) => Promise<T>,
): Promise<T> {
  const policy = retry(handleWhen(isTransient), {
    maxAttempts: Math.max(0, options.maxAttempts - 1),
    backoff: new ExponentialBackoff({
      initialDelay: options.initialDelayMs,
      maxDelay: options.maxDelayMs,
    }),
  });
  return policy.execute(({ attempt }) => fn(attempt + 1));
}
