import { once } from "node:events";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { ViteDevServer } from "vite";
import { createServer } from "vite";
import { playgroundDir } from "./browser.js";

/** Vite's dev server for the playground, as `pnpm dev` runs it, on a free port. */
export interface PlaygroundDevServer {
  readonly url: string;
  readonly server: ViteDevServer;
  close(): Promise<void>;
}

/**
 * Starts the dev server with the playground's own `vite.config.ts` (so `serve` mode, the
 * development defaults and hot reload), on 127.0.0.1 and any free port instead of 5173.
 * `pluginUrl` is given as `VITE_PLUGIN_URL`, the variable the README tells people to set.
 */
export async function startDevServer(pluginUrl: string): Promise<PlaygroundDevServer> {
  // Vite picks 5173 or the next free port; the tests take any free port from the system, so
  // Vite runs as middleware of a server listening on 127.0.0.1:0, hot reload on the same port.
  const http = createHttpServer();
  // Set as a person sets it; Vite reads VITE_* variables while it resolves the configuration.
  const previous = process.env.VITE_PLUGIN_URL;
  process.env.VITE_PLUGIN_URL = pluginUrl;
  let server: ViteDevServer;
  try {
    server = await createServer({
      root: playgroundDir,
      configFile: join(playgroundDir, "vite.config.ts"),
      logLevel: "warn",
      clearScreen: false,
      server: { middlewareMode: true, hmr: { server: http } },
    });
  } finally {
    if (previous === undefined) delete process.env.VITE_PLUGIN_URL;
    else process.env.VITE_PLUGIN_URL = previous;
  }
  http.on("request", server.middlewares);
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    async close() {
      await server.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
