import { readFileSync } from "node:fs";
import { ErrorCode } from "@costplugin/proto";
import type { BillingConfig } from "./config.js";
import { ConfigError } from "./config-error.js";
import type { ConfigValue } from "./config-value.js";

/** The variables credentials are read from (names are part of the public contract). */
export const credentialVariables = {
  token: "COSTPLUGIN_BILLING_TOKEN",
  tokenFile: "COSTPLUGIN_BILLING_TOKEN_FILE",
  costReportToken: "COSTPLUGIN_BILLING_COST_REPORT_TOKEN",
  workspaceToken: "COSTPLUGIN_BILLING_WORKSPACE_TOKEN",
} as const;

/** Which report or workspace the vendor reads, and the token naming it. */
export interface CostScope {
  /** `cost_report` (preferred) or `workspace`. */
  readonly kind: "cost_report" | "workspace";
  /** The token value; a secret. */
  readonly token: string;
}

/** Credentials ready for use, with where each came from (never the values) for messages. */
export interface ResolvedCredentials {
  /** The API token sent as `Authorization: Bearer`; a secret. */
  readonly bearerToken: string;
  /** The report or workspace to read. */
  readonly scope: CostScope;
  /** Where the API token came from, e.g. `COSTPLUGIN_BILLING_TOKEN`. */
  readonly bearerSource: string;
  /** Where the scope token came from. */
  readonly scopeSource: string;
  /** Every secret value resolved: the logger redacts them wherever they appear. */
  readonly secrets: readonly string[];
  /** Warnings for the operator (literal tokens in the file, an ignored workspace token). */
  readonly warnings: readonly string[];
}

/** Options of `resolveCredentials`. */
export interface ResolveCredentialsOptions {
  /** The process environment. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Reads the file named by COSTPLUGIN_BILLING_TOKEN_FILE. Default: `fs.readFileSync`. */
  readonly readFile?: (path: string) => string;
}

interface Candidate {
  readonly value: string;
  readonly origin: string;
  readonly literal: boolean;
}

type Lookup = { found: Candidate } | { missing: string } | { absent: true };

/**
 * Resolves the API token and the report/workspace token.
 *
 * API token precedence: the file named by COSTPLUGIN_BILLING_TOKEN_FILE, then
 * COSTPLUGIN_BILLING_TOKEN, then `credentials.token`. Scope: the cost report token
 * (COSTPLUGIN_BILLING_COST_REPORT_TOKEN, then `params.cost_report_token`) is preferred; the
 * workspace token (COSTPLUGIN_BILLING_WORKSPACE_TOKEN, then `params.workspace_token`) is the
 * fallback. Empty override variables count as unset. Throws a `ConfigError` whose message names
 * the variable or key at fault and never contains a token value.
 */
export function resolveCredentials(
  config: BillingConfig,
  options: ResolveCredentialsOptions,
): ResolvedCredentials {
  const env = options.env;
  const warnings: string[] = [];
  const readFile = options.readFile ?? ((path: string) => readFileSync(path, "utf8"));

  const bearer = lookupBearer(config, env, readFile);
  if ("missing" in bearer) throw new ConfigError(bearer.missing, ErrorCode.MISSING_API_KEY);
  if ("absent" in bearer) {
    throw new ConfigError(
      `no API token configured: set ${credentialVariables.tokenFile}, ${credentialVariables.token} or credentials.token`,
      ErrorCode.MISSING_API_KEY,
    );
  }
  checkPlainToken(bearer.found, "the API token", config.tokenMinLength);
  if (bearer.found.literal) warnings.push(literalWarning(bearer.found.origin));

  const report = lookup(
    env,
    credentialVariables.costReportToken,
    config.credentials.costReportToken,
    "params.cost_report_token",
  );
  let scope: CostScope;
  let scopeCandidate: Candidate;
  if ("found" in report) {
    scopeCandidate = report.found;
    checkTypedToken(
      report.found,
      "the cost report token",
      config.tokenPrefixes.costReport,
      config.tokenPrefixes.workspace,
      "a workspace token",
      config.tokenMinLength,
    );
    scope = { kind: "cost_report", token: report.found.value };
    if (hasWorkspaceSetting(config, env)) {
      warnings.push(
        "both a cost report token and a workspace token are configured: the cost report token is used",
      );
    }
  } else {
    const workspace = lookup(
      env,
      credentialVariables.workspaceToken,
      config.credentials.workspaceToken,
      "params.workspace_token",
    );
    if ("found" in workspace) {
      scopeCandidate = workspace.found;
      checkTypedToken(
        workspace.found,
        "the workspace token",
        config.tokenPrefixes.workspace,
        config.tokenPrefixes.costReport,
        "a cost report token",
        config.tokenMinLength,
      );
      scope = { kind: "workspace", token: workspace.found.value };
      if ("missing" in report) {
        warnings.push(`${report.missing}: the workspace token is used instead`);
      }
    } else {
      const missing = [report, workspace].flatMap((l) => ("missing" in l ? [l.missing] : []));
      throw new ConfigError(
        missing.length > 0
          ? missing.join("; ")
          : `no cost report or workspace token configured: set ${credentialVariables.costReportToken} (preferred), ${credentialVariables.workspaceToken}, params.cost_report_token or params.workspace_token`,
        ErrorCode.MISSING_API_KEY,
      );
    }
  }
  if (scopeCandidate.literal) warnings.push(literalWarning(scopeCandidate.origin));
  return {
    bearerToken: bearer.found.value,
    scope,
    bearerSource: bearer.found.origin,
    scopeSource: scopeCandidate.origin,
    secrets: [bearer.found.value, scope.token],
    warnings,
  };
}

function lookupBearer(
  config: BillingConfig,
  env: Readonly<Record<string, string | undefined>>,
  readFile: (path: string) => string,
): Lookup {
  const file = env[credentialVariables.tokenFile];
  if (file !== undefined && file !== "") {
    let content: string;
    try {
      content = readFile(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
      return {
        missing: `${credentialVariables.tokenFile} names ${file}, which cannot be read (${code})`,
      };
    }
    // Secret files usually end with one line break; anything else is part of the value.
    const value = content.replace(/\r?\n$/, "");
    if (value === "")
      return { missing: `${credentialVariables.tokenFile} names ${file}, which is empty` };
    return {
      found: {
        value,
        origin: `the file named by ${credentialVariables.tokenFile}`,
        literal: false,
      },
    };
  }
  return lookup(env, credentialVariables.token, config.credentials.token, "credentials.token");
}

function lookup(
  env: Readonly<Record<string, string | undefined>>,
  variable: string,
  setting: ConfigValue | undefined,
  key: string,
): Lookup {
  const override = env[variable];
  if (override !== undefined && override !== "") {
    return { found: { value: override, origin: variable, literal: false } };
  }
  if (setting === undefined) return { absent: true };
  if (setting.kind === "literal") {
    if (setting.value === "") return { absent: true };
    return { found: { value: setting.value, origin: key, literal: true } };
  }
  const value = env[setting.variable];
  if (value === undefined)
    return { missing: `${setting.variable} is not set (referenced by ${key})` };
  if (value === "") return { missing: `${setting.variable} is empty (referenced by ${key})` };
  return { found: { value, origin: `${setting.variable} (referenced by ${key})`, literal: false } };
}

function hasWorkspaceSetting(
  config: BillingConfig,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  const override = env[credentialVariables.workspaceToken];
  return (
    (override !== undefined && override !== "") || config.credentials.workspaceToken !== undefined
  );
}

function checkPlainToken(candidate: Candidate, what: string, minLength: number): void {
  const label = `${what} (${candidate.origin})`;
  checkCharacters(candidate.value, label);
  if (candidate.value.length < minLength) {
    throw invalid(`${label} is shorter than ${minLength} characters and looks truncated`);
  }
}

function checkTypedToken(
  candidate: Candidate,
  what: string,
  prefixes: readonly string[],
  otherPrefixes: readonly string[],
  otherKind: string,
  minLength: number,
): void {
  const label = `${what} (${candidate.origin})`;
  checkCharacters(candidate.value, label);
  const prefix = prefixes.find((p) => candidate.value.startsWith(p));
  if (prefix === undefined) {
    const looksOther = otherPrefixes.some((p) => candidate.value.startsWith(p));
    throw invalid(
      `${label} must start with ${prefixes.join(" or ")}${looksOther ? ` (it looks like ${otherKind})` : ""}`,
    );
  }
  const rest = candidate.value.slice(prefix.length);
  if (!/^[A-Za-z0-9]*$/.test(rest)) {
    throw invalid(`${label} must contain only letters and digits after ${prefix}`);
  }
  if (rest.length < minLength) {
    throw invalid(
      `${label} is shorter than ${minLength} characters after ${prefix} and looks truncated`,
    );
  }
}

function checkCharacters(value: string, label: string): void {
  if (/\s/.test(value)) throw invalid(`${label} contains whitespace or a line break`);
  if (!/^[\x21-\x7e]+$/.test(value)) {
    throw invalid(`${label} contains characters that cannot appear in a token`);
  }
}

function invalid(detail: string): ConfigError {
  return new ConfigError(`invalid token format: ${detail}`, ErrorCode.INVALID_CREDENTIALS);
}

function literalWarning(key: string): string {
  return `${key} holds a literal token: use a \${ENV_VAR} reference or ${credentialVariables.tokenFile} outside local development`;
}
