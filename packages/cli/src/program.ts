import { tokenCommand } from "@costplugin/api";
import { conformanceCommand } from "@costplugin/conformance";
import { Command } from "commander";
import { serveCommand } from "./commands/serve.js";

/** The `costplugin` command with all its subcommands. */
export function createProgram(env: NodeJS.ProcessEnv = process.env): Command {
  return new Command("costplugin")
    .description("costplugin: cost source plugins over gRPC, gRPC-web and Connect")
    .addCommand(serveCommand(env), { isDefault: true })
    .addCommand(tokenCommand())
    .addCommand(conformanceCommand());
}
