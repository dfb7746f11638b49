import { runCli } from "./cli-program.js";

// The process entry of `costplugin-billing`: everything else lives in runCli, which tests drive.
const controller = new AbortController();
const stop = () => controller.abort(new Error("interrupted"));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
const command = process.argv[2];
const code = await runCli({
  argv: process.argv.slice(2),
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  stderrIsTTY: process.stderr.isTTY === true,
  signal: controller.signal,
  serve: async (plugin, options) => {
    // The server installs its own graceful-shutdown handlers.
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    // Loaded for `serve` only, so pulls and validate-token start fast and small.
    const { runPlugin } = await import("@costplugin/server");
    return runPlugin(plugin, options);
  },
});
if (command !== "serve" || code !== 0) process.exitCode = code;
