export { defaultServePort, parsePort, serveCommand } from "./commands/serve.js";
export { createProgram } from "./program.js";
