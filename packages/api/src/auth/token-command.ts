import { Command, InvalidArgumentError, Option } from "commander";
import { secondsFromDuration } from "../duration.js";
import { mintToken } from "./mint-token.js";
import { isRole, roles } from "./roles.js";

/** Where `tokenCommand` reads its configuration and writes its output. */
export interface TokenCommandOptions {
  /** Environment holding `COSTPLUGIN_JWT_SECRET` (and optional issuer/audience). Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Receives the token line. Default standard output. */
  readonly write?: (text: string) => void;
}

/**
 * The `token` subcommand: `costplugin token --role <viewer|operator|admin> [--sub NAME] [--ttl 1h]`
 * prints a token signed with `COSTPLUGIN_JWT_SECRET`, carrying `COSTPLUGIN_JWT_ISSUER` and
 * `COSTPLUGIN_JWT_AUDIENCE` when they are set.
 */
export function tokenCommand(options: TokenCommandOptions = {}): Command {
  return new Command("token")
    .description("print a bearer token for the REST API, signed with COSTPLUGIN_JWT_SECRET")
    .addOption(
      new Option("--role <role>", "role granted by the token")
        .choices([...roles])
        .makeOptionMandatory(),
    )
    .option("--sub <name>", "subject (who the token is for)", "local-cli")
    .option(
      "--ttl <duration>",
      "lifetime, for example 15m, 1h, 7d",
      (value: string) => {
        try {
          secondsFromDuration(value);
        } catch (error) {
          throw new InvalidArgumentError((error as Error).message);
        }
        return value;
      },
      "1h",
    )
    .action(function (this: Command, flags: { role: string; sub: string; ttl: string }) {
      const env = options.env ?? process.env;
      const secret = env.COSTPLUGIN_JWT_SECRET?.trim();
      if (!secret) {
        this.error(
          "error: COSTPLUGIN_JWT_SECRET is not set; set it to the secret the API verifies tokens with",
          { exitCode: 2, code: "costplugin.token.noSecret" },
        );
      }
      if (!isRole(flags.role)) this.error(`error: unknown role ${flags.role}`, { exitCode: 2 });
      const token = mintToken({
        secret,
        role: flags.role,
        sub: flags.sub,
        ttl: flags.ttl,
        issuer: env.COSTPLUGIN_JWT_ISSUER?.trim() || undefined,
        audience: env.COSTPLUGIN_JWT_AUDIENCE?.trim() || undefined,
      });
      (options.write ?? ((text: string) => process.stdout.write(text)))(`${token}\n`);
    });
}
