// A process that logs through createLogDestination and then ends as argv[3] says:
// "exit" (process.exit(3)), "throw" (an uncaught exception) or "return" (the event loop empties).
import { openSync } from "node:fs";
import { createLogDestination } from "../log-destination.js";
import { createServerLogger } from "../logger.js";

const [file = "", ending = "return"] = process.argv.slice(2);
const logger = createServerLogger({
  options: {},
  stream: createLogDestination(openSync(file, "a")),
});
logger.info({ ending }, "last words");
if (ending === "exit") process.exit(3);
if (ending === "throw") throw new Error("uncaught on purpose");
