import type { PlaygroundState } from "./playground-state.js";
import type { PluginSession } from "./plugin-session.js";
import { createPluginSession } from "./plugin-session.js";
import type { Store } from "./store.js";

/** What every panel gets: the page state and the session on the current plugin. */
export interface AppContext {
  readonly store: Store<PlaygroundState>;
  /** The session on the plugin URL and protocol of the current state. */
  session(): PluginSession;
  /**
   * Calls `listener` now and whenever the plugin URL or protocol changes (a new session). Panels
   * reload what they show from the plugin there.
   */
  onSession(listener: (session: PluginSession) => void): void;
}

/** Options of `createAppContext`. */
export interface AppContextOptions {
  readonly store: Store<PlaygroundState>;
  /** Opens a session; replaceable for tests. Default: `createPluginSession`. */
  readonly openSession?: typeof createPluginSession;
}

/** Wires the store to sessions: a new session each time the URL or protocol changes. */
export function createAppContext(options: AppContextOptions): AppContext {
  const open = options.openSession ?? createPluginSession;
  const { store } = options;
  let current = open({ baseUrl: store.get().baseUrl, protocol: store.get().protocol });
  const listeners: Array<(session: PluginSession) => void> = [];
  store.subscribe((next, previous) => {
    if (next.baseUrl === previous.baseUrl && next.protocol === previous.protocol) return;
    current = open({ baseUrl: next.baseUrl, protocol: next.protocol });
    for (const listener of listeners) listener(current);
  });
  return {
    store,
    session: () => current,
    onSession(listener) {
      listeners.push(listener);
      listener(current);
    },
  };
}
