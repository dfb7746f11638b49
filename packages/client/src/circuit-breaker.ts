import { create } from "@bufbuild/protobuf";
import { timestampNow } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorCategory, ErrorCode, ErrorDetailSchema } from "@costplugin/proto";
import type { IBreaker } from "cockatiel";
import {
  BrokenCircuitError,
  CircuitState,
  ConsecutiveBreaker,
  CountBreaker,
  circuitBreaker,
  handleWhen,
  IsolatedCircuitError,
} from "cockatiel";
import { errorCategoryFromError } from "./error-detail.js";
import { definedOnly, requireNumber } from "./option-validation.js";

/**
 * When the client stops calling an unhealthy plugin. The circuit opens when EITHER rule trips,
 * then every call fails fast with `unavailable` and ErrorDetail CIRCUIT_OPEN until
 * `halfOpenAfterMs` passed; the next call is then let through as a probe (others wait for it):
 * success closes the circuit, failure opens it for another `halfOpenAfterMs`.
 */
export interface CircuitBreakerOptions {
  /** Consecutive plugin failures that open the circuit. Default 5. */
  readonly consecutiveFailures?: number;
  /**
   * Share of failed calls among the last `windowSize` calls above which the circuit opens,
   * strictly between 0 and 1. Default 0.5: the circuit opens when MORE than half failed.
   */
  readonly failureRateThreshold?: number;
  /** Calls that must be in the window before the failure rate is considered. Default 10. */
  readonly minimumCalls?: number;
  /** Number of most recent calls the failure rate is computed over. Default 20. */
  readonly windowSize?: number;
  /** How long the circuit stays open before a probe call is let through, in ms. Default 60 000. */
  readonly halfOpenAfterMs?: number;
}

/** CircuitBreakerOptions with every default filled in and validated. */
export type ResolvedCircuitBreakerOptions = Required<CircuitBreakerOptions>;

/** The defaults of `CircuitBreakerOptions`. */
export const defaultCircuitBreakerOptions: ResolvedCircuitBreakerOptions = Object.freeze({
  consecutiveFailures: 5,
  failureRateThreshold: 0.5,
  minimumCalls: 10,
  windowSize: 20,
  halfOpenAfterMs: 60_000,
});

/** Fills in the defaults of `options` and rejects values that cannot work (RangeError). */
export function resolveCircuitBreakerOptions(
  options: CircuitBreakerOptions = {},
): ResolvedCircuitBreakerOptions {
  const resolved = { ...defaultCircuitBreakerOptions, ...definedOnly(options) };
  requireNumber("circuitBreaker.consecutiveFailures", resolved.consecutiveFailures, 1, 1e6, true);
  requireNumber("circuitBreaker.windowSize", resolved.windowSize, 1, 1e6, true);
  requireNumber("circuitBreaker.minimumCalls", resolved.minimumCalls, 1, resolved.windowSize, true);
  requireNumber(
    "circuitBreaker.halfOpenAfterMs",
    resolved.halfOpenAfterMs,
    1,
    2_147_483_647,
    false,
  );
  const threshold = resolved.failureRateThreshold;
  if (!(Number.isFinite(threshold) && threshold > 0 && threshold < 1)) {
    throw new RangeError(
      `circuitBreaker.failureRateThreshold must be strictly between 0 and 1, got ${String(threshold)}`,
    );
  }
  return resolved;
}

/** The state of a circuit breaker as the client reports it. */
export type CircuitBreakerState = "closed" | "open" | "half-open";

/** A circuit breaker shared by every call of one client (one plugin). */
export interface PluginCircuitBreaker {
  /** Runs `call` unless the circuit is open; records whether the plugin answered. */
  execute<T>(call: () => Promise<T>): Promise<T>;
  /** The current state. */
  readonly state: CircuitBreakerState;
}

/**
 * Whether a failure says the plugin is unhealthy and counts against the circuit: a TRANSIENT
 * ErrorDetail, or no categorised detail and `unavailable`, `deadline_exceeded`, `internal` or `unknown`
 * (unreachable, too slow, crashed, or an unreadable answer). A PERMANENT or CONFIGURATION error,
 * `invalid_argument`, `not_found` and every other code mean the plugin answered: they count as
 * successes for the breaker. A call the caller cancelled counts neither way.
 */
export function isPluginFailure(error: unknown): boolean {
  if (!(error instanceof ConnectError)) return true;
  const category = errorCategoryFromError(error);
  if (category !== undefined) return category === ErrorCategory.TRANSIENT;
  return (
    error.code === Code.Unavailable ||
    error.code === Code.DeadlineExceeded ||
    error.code === Code.Internal ||
    error.code === Code.Unknown
  );
}

/**
 * Creates the circuit breaker of one client, built on cockatiel's `CircuitBreakerPolicy` with
 * its `ConsecutiveBreaker` and `CountBreaker` combined (the circuit opens when either trips).
 */
export function createPluginCircuitBreaker(
  options: CircuitBreakerOptions = {},
): PluginCircuitBreaker {
  const resolved = resolveCircuitBreakerOptions(options);
  const policy = circuitBreaker(handleWhen(isPluginFailure), {
    halfOpenAfter: resolved.halfOpenAfterMs,
    breaker: new EitherBreaker(
      new ConsecutiveBreaker(resolved.consecutiveFailures),
      new CountBreaker({
        threshold: resolved.failureRateThreshold,
        size: resolved.windowSize,
        minimumNumberOfCalls: resolved.minimumCalls,
      }),
    ),
  });
  let openedAt = 0;
  policy.onBreak(() => {
    openedAt = Date.now();
  });
  return {
    get state() {
      return stateNames[policy.state];
    },
    async execute<T>(call: () => Promise<T>): Promise<T> {
      let outcome: { value: T } | { answered: unknown };
      try {
        outcome = await policy.execute(async () => {
          try {
            return { value: await call() };
          } catch (error) {
            if (isPluginFailure(error) || isCancellation(error)) throw error;
            return { answered: error };
          }
        });
      } catch (error) {
        if (error instanceof BrokenCircuitError || error instanceof IsolatedCircuitError) {
          throw circuitOpenError(openedAt + resolved.halfOpenAfterMs - Date.now(), error);
        }
        throw error;
      }
      if ("answered" in outcome) throw outcome.answered;
      return outcome.value;
    },
  };
}

/** Whether `error` is the client's own fail-fast CIRCUIT_OPEN (never retried by the client). */
export function isLocalCircuitOpenError(error: unknown): boolean {
  return (
    error instanceof ConnectError &&
    (error.cause instanceof BrokenCircuitError || error.cause instanceof IsolatedCircuitError)
  );
}

const stateNames: Readonly<Record<CircuitState, CircuitBreakerState>> = {
  [CircuitState.Closed]: "closed",
  [CircuitState.Open]: "open",
  [CircuitState.HalfOpen]: "half-open",
  [CircuitState.Isolated]: "open",
};

function isCancellation(error: unknown): boolean {
  return error instanceof ConnectError && error.code === Code.Canceled;
}

function circuitOpenError(remainingMs: number, cause: Error): ConnectError {
  const retryAfterSeconds = Math.max(1, Math.ceil(remainingMs / 1000));
  const message = `circuit breaker open after repeated plugin failures; calls fail fast for about ${retryAfterSeconds} s`;
  const detail = create(ErrorDetailSchema, {
    code: ErrorCode.CIRCUIT_OPEN,
    category: ErrorCategory.TRANSIENT,
    message,
    retryAfterSeconds,
    timestamp: timestampNow(),
  });
  return new ConnectError(
    message,
    Code.Unavailable,
    undefined,
    [{ desc: ErrorDetailSchema, value: detail }],
    cause,
  );
}

/** Opens when either of two cockatiel breakers would; both see every outcome. */
class EitherBreaker implements IBreaker {
  constructor(
    private readonly first: IBreaker,
    private readonly second: IBreaker,
  ) {}

  get state(): unknown {
    return [this.first.state, this.second.state];
  }

  set state(value: unknown) {
    if (Array.isArray(value) && value.length === 2) {
      this.first.state = value[0];
      this.second.state = value[1];
    }
  }

  success(state: CircuitState): void {
    this.first.success(state);
    this.second.success(state);
  }

  failure(state: CircuitState): boolean {
    const first = this.first.failure(state);
    const second = this.second.failure(state);
    return first || second;
  }
}
