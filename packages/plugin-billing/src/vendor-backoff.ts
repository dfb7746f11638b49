import type { IBackoff, IBackoffFactory, IRetryBackoffContext } from "cockatiel";
import { ExponentialBackoff } from "cockatiel";
import { VendorError } from "./vendor-error.js";

/** Options of `createVendorBackoff`. */
export interface VendorBackoffOptions {
  /** First delay before jitter. */
  readonly initialDelayMs: number;
  /** Largest computed delay. */
  readonly maxDelayMs: number;
}

type Context = IRetryBackoffContext<unknown>;

/**
 * Exponential backoff with decorrelated jitter (cockatiel's generator), except that a wait the
 * vendor asked for (429 `Retry-After` / `x-rate-limit-reset`) replaces the computed delay.
 */
export function createVendorBackoff(options: VendorBackoffOptions): IBackoffFactory<Context> {
  const exponential = new ExponentialBackoff({
    initialDelay: options.initialDelayMs,
    maxDelay: options.maxDelayMs,
  });
  const step = (previous: IBackoffFactory<unknown>, context: Context): IBackoff<Context> => {
    const computed = previous.next(undefined);
    const error = "error" in context.result ? context.result.error : undefined;
    const requested = error instanceof VendorError ? error.retryAfterMs : undefined;
    return {
      duration: requested ?? computed.duration,
      next: (nextContext) => step(computed, nextContext),
    };
  };
  return { next: (context) => step(exponential, context) };
}
