import { parseArgs } from "node:util";

/** Where a plugin process listens, as its host asked. */
export interface HostOptions {
  /** The port: `--port`, else `COSTPLUGIN_PLUGIN_PORT`, else 0 (ephemeral). */
  readonly port: number;
  /** The interface: `--host`, else `127.0.0.1`. */
  readonly host: string;
}

/** The environment variable a host sets when it does not pass `--port`. */
export const pluginPortVariable = "COSTPLUGIN_PLUGIN_PORT";

/** A value of `--port`, `--host` or `COSTPLUGIN_PLUGIN_PORT` that cannot be used. */
export class HostOptionsError extends Error {
  override readonly name = "HostOptionsError";
}

/**
 * Reads the plugin host contract from the command line and environment, once, at the edge:
 * `--port=<n>` or `--port <n>`, else `COSTPLUGIN_PLUGIN_PORT`, else an ephemeral port; `--host`,
 * else 127.0.0.1. A generic `PORT` variable is deliberately not read (it collides with other
 * tools). Other arguments are left to the plugin. Throws `HostOptionsError` for unusable values.
 */
export function parseHostOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): HostOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: { port: { type: "string" }, host: { type: "string" } },
    strict: false,
    allowPositionals: true,
  });
  const port =
    values.port !== undefined
      ? portFrom("--port", values.port)
      : env[pluginPortVariable] !== undefined
        ? portFrom(pluginPortVariable, env[pluginPortVariable])
        : 0;
  const host = values.host === undefined ? "127.0.0.1" : hostFrom(values.host);
  return { port, host };
}

function portFrom(source: string, value: string | boolean | undefined): number {
  const text = typeof value === "string" ? value.trim() : "";
  const port = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(port >= 0 && port <= 65_535)) {
    const shown = typeof value === "string" ? `"${value.slice(0, 40)}"` : "no value";
    throw new HostOptionsError(
      `invalid ${source}: got ${shown}, expected an integer from 0 to 65535 (0: any free port)`,
    );
  }
  return port;
}

function hostFrom(value: string | boolean): string {
  if (typeof value !== "string" || value.trim() === "" || /\s/.test(value)) {
    throw new HostOptionsError("invalid --host: expected an interface address such as 127.0.0.1");
  }
  return value;
}
