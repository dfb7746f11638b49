// biome-ignore-all lint/suspicious/noTemplateCurlyInString: configuration files hold literal ${ENV_VAR} references
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** Options of `writeConfigFile`. */
export interface ConfigFileOptions {
  /** The folder the file is written to. */
  readonly dir: string;
  /** `params.vendor_api_url`. */
  readonly vendorUrl: string;
  /** `params.database_url`. */
  readonly databaseUrl: string;
  /** `source`. Default `stand-in`. */
  readonly source?: string;
  /** Extra `params` lines, already in YAML (`key: value`). */
  readonly params?: readonly string[];
  /** Extra top-level YAML appended as is. */
  readonly extra?: string;
  /** `credentials.token` as written. Default `${COSTPLUGIN_BILLING_TOKEN}`. */
  readonly token?: string;
}

/** Writes a billing configuration file for tests and demos and returns its path. */
export function writeConfigFile(options: ConfigFileOptions): string {
  const path = join(options.dir, "billing.yaml");
  const lines = [
    "version: 0.1",
    `source: ${options.source ?? "stand-in"}`,
    "credentials:",
    `  token: ${JSON.stringify(options.token ?? "${COSTPLUGIN_BILLING_TOKEN}")}`,
    "params:",
    "  cost_report_token: ${COSTPLUGIN_BILLING_COST_REPORT_TOKEN}",
    "  granularity: day",
    `  vendor_api_url: ${options.vendorUrl}`,
    `  database_url: ${JSON.stringify(options.databaseUrl)}`,
    ...(options.params ?? []).map((line) => `  ${line}`),
  ];
  writeFileSync(path, `${lines.join("\n")}\n${options.extra ?? ""}`);
  return path;
}
