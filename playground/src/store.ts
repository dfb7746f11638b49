/** A tiny observable value: the page state lives in one of these. */
export interface Store<T> {
  get(): T;
  /** Replaces the value with `update(current)` and notifies subscribers when it changed. */
  update(update: (current: T) => T): void;
  /** Calls `listener(next, previous)` after each change; returns the unsubscribe function. */
  subscribe(listener: (next: T, previous: T) => void): () => void;
}

/** Creates a store holding `initial`. */
export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<(next: T, previous: T) => void>();
  return {
    get: () => value,
    update(update) {
      const previous = value;
      const next = update(previous);
      if (next === previous) return;
      value = next;
      for (const listener of [...listeners]) listener(next, previous);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
