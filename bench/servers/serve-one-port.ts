// The project's one-port server with the reference plugin, as a user runs it (logs off, as for
// every peer). `--no-fast-path` sends every request through connect-fastify.
import { parseArgs } from "node:util";
import { createListPricePlugin } from "@costplugin/plugin-list-price";
import { startServer } from "@costplugin/server";

const { values } = parseArgs({ options: { "no-fast-path": { type: "boolean", default: false } } });
const running = await startServer({
  plugin: createListPricePlugin(),
  port: 0,
  logger: false,
  fastPath: !values["no-fast-path"],
});
process.stdout.write(`PORT=${running.port}\n`);
process.once("SIGTERM", () => void running.close().then(() => process.exit(0)));
