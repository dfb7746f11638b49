import { runPlugin } from "@costplugin/server";
import { createListPricePlugin } from "./list-price-plugin.js";

// The entry point only builds the plugin and hands it to the host contract: `--port`,
// `COSTPLUGIN_PLUGIN_PORT`, one `PORT=<n>` line on stdout, logs on stderr, clean exit on signals.
try {
  await runPlugin(createListPricePlugin());
} catch (error) {
  process.stderr.write(
    `${JSON.stringify({ level: "fatal", msg: "list-price plugin failed to start", err: String(error) })}\n`,
  );
  process.exitCode = 1;
}
