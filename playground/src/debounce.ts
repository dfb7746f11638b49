/** A debounced function: `call` restarts the wait, `cancel` drops a pending call. */
export interface Debounced<A extends unknown[]> {
  call(...args: A): void;
  cancel(): void;
}

/**
 * Delays `fn` until `waitMs` passed without another call; only the last arguments are used.
 * Used for Supports-as-you-type, so a burst of keystrokes costs one request.
 */
export function createDebounced<A extends unknown[]>(
  fn: (...args: A) => void,
  waitMs: number,
): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    call(...args) {
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = undefined;
        fn(...args);
      }, waitMs);
    },
    cancel() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
