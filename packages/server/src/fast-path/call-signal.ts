import { getEventListeners } from "node:events";
import { Code, ConnectError } from "@connectrpc/connect";

/**
 * The reason a call's signal carries once the call is over, the same name and message as the
 * `AbortError` Connect's `abort()` creates, but built once: constructing a DOMException (with its
 * stack trace) per call is one of the largest costs of Connect's handlers.
 */
const callEndedReason = new DOMException("This operation was aborted", "AbortError");

/**
 * The property under which Node keeps the signals derived from a signal with `AbortSignal.any`,
 * found once by deriving from a probe; undefined when this Node keeps them elsewhere, and then
 * any extra own property counts as a derived signal.
 */
const probe = new AbortController().signal;
const plainSignalSymbols = Object.getOwnPropertySymbols(probe);
AbortSignal.any([probe]);
const dependantsKey = Object.getOwnPropertySymbols(probe).find(
  (symbol) => !plainSignalSymbols.includes(symbol),
);

/**
 * Whether aborting `signal` would be seen by anybody: an `abort` listener (fetch, timers,
 * `onabort`, `events.once`) or a signal derived from it with `AbortSignal.any`.
 */
function observed(signal: AbortSignal): boolean {
  if (getEventListeners(signal, "abort").length > 0) return true;
  if (dependantsKey === undefined) {
    return Object.getOwnPropertySymbols(signal).length !== plainSignalSymbols.length;
  }
  const dependants = (signal as unknown as Record<symbol, { size?: number } | undefined>)[
    dependantsKey
  ];
  return dependants !== undefined && dependants.size !== 0;
}

/**
 * The abort signal of one call (`HandlerContext.signal`), created only when somebody reads it.
 * It aborts, like Connect's, when the deadline passes (`deadline_exceeded`), when the client goes
 * away, when the server's shutdown timeout aborts in-flight calls and when the call fails (with
 * the error). When the call is over, Connect aborts it once more so that work still tied to it
 * stops; this one does so only when something is listening or derived from it, because
 * dispatching an abort nobody hears is a measurable part of every call.
 */
export class CallSignal {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  #timer: NodeJS.Timeout | undefined;

  /** Starts the deadline clock when the client sent a timeout. */
  constructor(timeoutMs: number | undefined) {
    if (timeoutMs === undefined) return;
    if (timeoutMs <= 0) {
      this.abort(deadlineError());
    } else {
      this.#timer = setTimeout(() => this.abort(deadlineError()), timeoutMs);
    }
  }

  /** The signal, created on first use (already aborted when the call was). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Aborts with `reason` unless already aborted; the first reason wins. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#clearTimer();
    this.#controller?.abort(reason);
  }

  /** The call is over: stop the deadline clock, and abort if anybody would notice. */
  end(): void {
    this.#clearTimer();
    const controller = this.#controller;
    if (controller === undefined || this.#aborted || observed(controller.signal)) {
      this.abort(callEndedReason);
    } else {
      this.#aborted = true;
      this.#reason = callEndedReason;
    }
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }
}

function deadlineError(): ConnectError {
  return new ConnectError("the operation timed out", Code.DeadlineExceeded);
}
