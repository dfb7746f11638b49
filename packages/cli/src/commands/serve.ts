import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { apiOptionsFromEnv, createApiExtension } from "@costplugin/api";
import { createListPricePlugin } from "@costplugin/plugin-list-price";
import { startServer } from "@costplugin/server";
import { Command, InvalidArgumentError } from "commander";

/** The port the main job listens on when neither `--port` nor `COSTPLUGIN_PLUGIN_PORT` is set. */
export const defaultServePort = 8080;

/** Where the built playground is, relative to this file in `dist/commands`. */
const playgroundDist = fileURLToPath(new URL("../../../../playground/dist", import.meta.url));

/** Parses a TCP port from a flag or variable; rejects anything but 0-65535. */
export function parsePort(value: string, source = "--port"): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) {
    throw new InvalidArgumentError(
      `${source} must be a port number from 0 to 65535, got "${value}"`,
    );
  }
  return Number(value);
}

/**
 * `costplugin serve`: the main job. The reference list-price plugin over gRPC, gRPC-web and
 * Connect, the playground at `/` and the REST API under `/api/v1`, all on one port.
 */
export function serveCommand(env: NodeJS.ProcessEnv = process.env): Command {
  return new Command("serve")
    .description("serve the reference plugin, the playground and the REST API on one port")
    .option("--port <n>", "TCP port (env COSTPLUGIN_PLUGIN_PORT; default 8080)", (v) =>
      parsePort(v),
    )
    .option("--host <address>", "address to bind", "127.0.0.1")
    .action(async (opts: { port?: number; host: string }) => {
      const envPort = env.COSTPLUGIN_PLUGIN_PORT;
      const port =
        opts.port ??
        (envPort ? parsePort(envPort, "COSTPLUGIN_PLUGIN_PORT") : undefined) ??
        defaultServePort;
      const api = apiOptionsFromEnv(env);
      const running = await startServer({
        plugin: createListPricePlugin(),
        host: opts.host,
        port,
        staticDir: existsSync(playgroundDist) ? playgroundDist : undefined,
        extensions: [createApiExtension(api.options)],
      });
      const lines = [
        `costplugin serving on ${running.url}`,
        `  playground       ${running.url}/`,
        `  gRPC (h2c)       ${running.url.replace(/^http/, "h2c")}  costplugin.v1.CostSourceService`,
        `  Connect/gRPC-web ${running.url}/costplugin.v1.CostSourceService/<Method>`,
        `  REST API         ${running.url}/api/v1  (docs: ${running.url}/api/v1/docs)`,
        `  metrics          ${running.url}/metrics`,
      ];
      if (api.generated !== undefined) {
        lines.push(
          "",
          "No COSTPLUGIN_JWT_SECRET is set: a signing secret was generated for this run only.",
          `Admin token for this run: ${api.generated.adminToken}`,
        );
      }
      process.stderr.write(`${lines.join("\n")}\n`);
      process.stdout.write(`PORT=${running.port}\n`);
      const stop = async () => {
        await running.close();
        process.exit(0);
      };
      process.once("SIGTERM", stop);
      process.once("SIGINT", stop);
    });
}
