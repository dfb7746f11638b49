import { MethodOptions_IdempotencyLevel } from "@bufbuild/protobuf/wkt";
import type { Transport } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import { DelegateBackoff, handleWhen, retry } from "cockatiel";
import type { CircuitBreakerOptions } from "./circuit-breaker.js";
import { createPluginCircuitBreaker, isLocalCircuitOpenError } from "./circuit-breaker.js";
import type { DeadlineOptions } from "./deadlines.js";
import { methodKey, resolveDeadlines } from "./deadlines.js";
import type { RetryOptions } from "./retry-options.js";
import { resolveRetryOptions, retryDelayFor } from "./retry-options.js";

/** The resilience a costplugin client applies to every unary call. */
export interface ResilienceOptions {
  /**
   * Retries of transient failures (see `RetryOptions`). Default: 3 attempts, 100 ms initial
   * delay, factor 2, 30 s cap, 10 % jitter. `false` disables retries.
   */
  readonly retry?: RetryOptions | false;
  /**
   * The circuit breaker shared by all calls of the client (see `CircuitBreakerOptions`).
   * Default: opens after 5 consecutive failures or more than 50 % failures over the last 20
   * calls once 10 were made, half-opens after 60 s. `false` disables it.
   */
  readonly circuitBreaker?: CircuitBreakerOptions | false;
  /**
   * Default per-RPC deadlines (see `DeadlineOptions` and `defaultDeadlines`), merged over the
   * defaults. `false` applies no default deadline (calls then wait as long as the transport lets
   * them, unless they pass `timeoutMs`).
   */
  readonly deadlines?: DeadlineOptions | false;
}

/**
 * Wraps a transport with the client's resilience: default per-RPC deadlines, retries with
 * exponential backoff and jitter (cockatiel's retry policy), and a circuit breaker (cockatiel's
 * circuit breaker policy). Any transport works, including `createRouterTransport`; clients made
 * with `createClient(Service, transport)` keep their exact types.
 *
 * Per call:
 * - The deadline is the call's `timeoutMs`, or the method's default. It bounds the whole call:
 *   each attempt gets the time that is left, and a retry whose delay would end past the
 *   deadline is not made (the last error is returned instead).
 * - Every attempt passes through the circuit breaker; while it is open, calls fail at once with
 *   `unavailable` and ErrorDetail CIRCUIT_OPEN (`retry_after_seconds` says when it half-opens),
 *   and that error is not retried.
 * - Only methods marked NO_SIDE_EFFECTS or IDEMPOTENT are retried (every costplugin.v1 RPC is),
 *   and only for errors `retryDelayFor` accepts.
 * - Aborting the call's signal ends it at once, also while waiting between attempts.
 *
 * Streaming calls get the default deadline only: a stream cannot be replayed.
 */
export function createResilientTransport(
  transport: Transport,
  options: ResilienceOptions = {},
): Transport {
  const retryOptions = options.retry === false ? undefined : resolveRetryOptions(options.retry);
  const breaker =
    options.circuitBreaker === false
      ? undefined
      : createPluginCircuitBreaker(options.circuitBreaker);
  const deadlines = resolveDeadlines(options.deadlines);

  return {
    unary(method, signal, timeoutMs, header, input, contextValues) {
      const budget = timeoutMs ?? deadlines.get(methodKey(method));
      const deadlineAt = budget !== undefined && budget > 0 ? Date.now() + budget : undefined;
      const attempt = () => {
        if (signal?.aborted === true) {
          return Promise.reject(
            ConnectError.from(signal.reason ?? "the operation was aborted", Code.Canceled),
          );
        }
        let attemptTimeoutMs = timeoutMs;
        if (deadlineAt !== undefined) {
          attemptTimeoutMs = deadlineAt - Date.now();
          if (attemptTimeoutMs <= 0) {
            return Promise.reject(
              new ConnectError("the operation timed out", Code.DeadlineExceeded),
            );
          }
        }
        const call = () =>
          transport.unary(method, signal, attemptTimeoutMs, header, input, contextValues);
        return breaker === undefined ? call() : breaker.execute(call);
      };
      const replayable = method.idempotency !== MethodOptions_IdempotencyLevel.IDEMPOTENCY_UNKNOWN;
      if (retryOptions === undefined || retryOptions.maxAttempts <= 1 || !replayable) {
        return attempt();
      }
      let failedAttempts = 0;
      let nextDelayMs = 0;
      const policy = retry(
        handleWhen((error) => {
          failedAttempts += 1;
          if (failedAttempts >= retryOptions.maxAttempts || signal?.aborted === true) return false;
          if (isLocalCircuitOpenError(error)) return false;
          const delayMs = retryDelayFor(error, failedAttempts, retryOptions);
          if (delayMs === undefined) return false;
          if (deadlineAt !== undefined && Date.now() + delayMs >= deadlineAt) return false;
          nextDelayMs = delayMs;
          return true;
        }),
        {
          maxAttempts: retryOptions.maxAttempts - 1,
          backoff: new DelegateBackoff(() => nextDelayMs),
        },
      );
      const execution = policy.execute(attempt, signal);
      return signal === undefined ? execution : settleOnAbort(execution, signal);
    },

    stream(method, signal, timeoutMs, header, input, contextValues) {
      const budget = timeoutMs ?? deadlines.get(methodKey(method));
      return transport.stream(method, signal, budget, header, input, contextValues);
    },
  };
}

/** Settles with `promise`, or rejects with `canceled` as soon as `signal` aborts. */
function settleOnAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () =>
      reject(ConnectError.from(signal.reason ?? "the operation was aborted", Code.Canceled));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
