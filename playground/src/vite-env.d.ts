/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Plugin URL the dev server page starts with. Default http://127.0.0.1:8080. */
  readonly VITE_PLUGIN_URL?: string;
}

/** True in the Vite dev server, false in a production build (set in vite.config.ts). */
declare const __PLAYGROUND_DEV_SERVER__: boolean;
