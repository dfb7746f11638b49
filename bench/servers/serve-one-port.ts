// The project's one-port server with the reference plugin, as a user runs it.
import { createListPricePlugin } from "@costplugin/plugin-list-price";
import { startServer } from "@costplugin/server";

const running = await startServer({ plugin: createListPricePlugin(), port: 0, logger: false });
process.stdout.write(`PORT=${running.port}\n`);
process.once("SIGTERM", () => void running.close().then(() => process.exit(0)));
