// biome-ignore-all lint/suspicious/noTemplateCurlyInString: configuration files hold literal ${ENV_VAR} references
import { describe, expect, it } from "vitest";
import type { BillingConfig } from "./config.js";
import { parseBillingConfig } from "./config.js";
import { ConfigError } from "./config-error.js";
import { resolveCredentials } from "./credentials.js";

const bearer = "tok0Bearer0Secret0Value0123";
const report = "cr_Report0Secret0Value0123";
const workspace = "ws_Workspace0Secret0Value01";

function config(
  credentials: Record<string, unknown> = {},
  params: Record<string, unknown> = {},
): BillingConfig {
  return parseBillingConfig(
    {
      version: 0.1,
      source: "vendor",
      credentials: { token: "${COSTPLUGIN_BILLING_TOKEN}", ...credentials },
      params: { cost_report_token: "${COSTPLUGIN_BILLING_COST_REPORT_TOKEN}", ...params },
    },
    { env: {} },
  );
}

/** Resolves and returns the error message, asserting no secret leaked into it. */
function failure(
  cfg: BillingConfig,
  env: Record<string, string>,
  readFile?: (p: string) => string,
): string {
  let error: unknown;
  try {
    resolveCredentials(cfg, { env, ...(readFile ? { readFile } : {}) });
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ConfigError);
  const message = (error as Error).message;
  const secrets = Object.entries(env)
    .filter(([name]) => !name.endsWith("_FILE"))
    .map(([, v]) => v);
  for (const value of [...secrets, bearer, report, workspace]) {
    if (value.length >= 8) expect(message).not.toContain(value.trim());
  }
  return message;
}

describe("resolveCredentials", () => {
  it("names the referenced variable when it is not set, never using the reference text", () => {
    expect(failure(config(), {})).toBe(
      "COSTPLUGIN_BILLING_TOKEN is not set (referenced by credentials.token)",
    );
  });

  it("names a referenced variable that is set but empty", () => {
    expect(failure(config({ token: "${MY_TOKEN}" }), { MY_TOKEN: "" })).toBe(
      "MY_TOKEN is empty (referenced by credentials.token)",
    );
  });

  it("rejects a token with a space as an invalid token format naming the token", () => {
    const env = {
      COSTPLUGIN_BILLING_TOKEN: "tok0Bearer0 Secret0Value0123",
      COSTPLUGIN_BILLING_COST_REPORT_TOKEN: report,
    };
    expect(failure(config(), env)).toBe(
      "invalid token format: the API token (COSTPLUGIN_BILLING_TOKEN) contains whitespace or a line break",
    );
  });

  it("rejects a token with an embedded newline", () => {
    const env = {
      COSTPLUGIN_BILLING_TOKEN: bearer,
      COSTPLUGIN_BILLING_COST_REPORT_TOKEN: `${report}\n`,
    };
    expect(failure(config(), env)).toBe(
      "invalid token format: the cost report token (COSTPLUGIN_BILLING_COST_REPORT_TOKEN) contains whitespace or a line break",
    );
  });

  it("rejects a truncated cost report token", () => {
    const env = {
      COSTPLUGIN_BILLING_TOKEN: bearer,
      COSTPLUGIN_BILLING_COST_REPORT_TOKEN: "cr_Report0Sec",
    };
    expect(failure(config(), env)).toBe(
      "invalid token format: the cost report token (COSTPLUGIN_BILLING_COST_REPORT_TOKEN) is shorter than 16 characters after cr_ and looks truncated",
    );
  });

  it("rejects a truncated API token", () => {
    const env = {
      COSTPLUGIN_BILLING_TOKEN: "tok0Bearer",
      COSTPLUGIN_BILLING_COST_REPORT_TOKEN: report,
    };
    expect(failure(config(), env)).toBe(
      "invalid token format: the API token (COSTPLUGIN_BILLING_TOKEN) is shorter than 16 characters and looks truncated",
    );
  });

  it("rejects a workspace token given as the cost report token, saying which type it looks like", () => {
    const env = {
      COSTPLUGIN_BILLING_TOKEN: bearer,
      COSTPLUGIN_BILLING_COST_REPORT_TOKEN: workspace,
    };
    expect(failure(config(), env)).toBe(
      "invalid token format: the cost report token (COSTPLUGIN_BILLING_COST_REPORT_TOKEN) must start with cr_ (it looks like a workspace token)",
    );
  });

  it("rejects a workspace token with characters other than letters and digits", () => {
    const cfg = config(
      {},
      { cost_report_token: undefined, workspace_token: "${COSTPLUGIN_BILLING_WORKSPACE_TOKEN}" },
    );
    const env = {
      COSTPLUGIN_BILLING_TOKEN: bearer,
      COSTPLUGIN_BILLING_WORKSPACE_TOKEN: "ws_Workspace-Secret-Value-01",
    };
    expect(failure(cfg, env)).toBe(
      "invalid token format: the workspace token (COSTPLUGIN_BILLING_WORKSPACE_TOKEN) must contain only letters and digits after ws_",
    );
  });

  it("accepts the vendor's own prefixes when they are configured", () => {
    const cfg = config({}, { cost_report_token_prefixes: ["rprt_", "cr_"] });
    const env = {
      COSTPLUGIN_BILLING_TOKEN: bearer,
      COSTPLUGIN_BILLING_COST_REPORT_TOKEN: "rprt_0123456789abcdef01",
    };
    expect(resolveCredentials(cfg, { env }).scope).toEqual({
      kind: "cost_report",
      token: "rprt_0123456789abcdef01",
    });
  });

  it("reads the API token from the file named by COSTPLUGIN_BILLING_TOKEN_FILE before any other source", () => {
    const env = {
      COSTPLUGIN_BILLING_TOKEN_FILE: "/run/secrets/billing-token",
      COSTPLUGIN_BILLING_TOKEN: "tok0Other0Token0Value00000",
      COSTPLUGIN_BILLING_COST_REPORT_TOKEN: report,
    };
    const resolved = resolveCredentials(config(), {
      env,
      readFile: (path) => (path === "/run/secrets/billing-token" ? `${bearer}\n` : ""),
    });
    expect(resolved.bearerToken).toBe(bearer);
    expect(resolved.bearerSource).toBe("the file named by COSTPLUGIN_BILLING_TOKEN_FILE");
  });

  it("rejects a token file with more than one trailing line break", () => {
    const env = {
      COSTPLUGIN_BILLING_TOKEN_FILE: "/run/secrets/t",
      COSTPLUGIN_BILLING_COST_REPORT_TOKEN: report,
    };
    expect(failure(config(), env, () => `${bearer}\n\n`)).toBe(
      "invalid token format: the API token (the file named by COSTPLUGIN_BILLING_TOKEN_FILE) contains whitespace or a line break",
    );
  });

  it("names an unreadable token file without reading anything else", () => {
    const env = {
      COSTPLUGIN_BILLING_TOKEN_FILE: "/nonexistent/token",
      COSTPLUGIN_BILLING_TOKEN: bearer,
    };
    const readFile = () => {
      throw Object.assign(new Error("ENOENT: no such file"), { code: "ENOENT" });
    };
    expect(failure(config(), env, readFile)).toBe(
      "COSTPLUGIN_BILLING_TOKEN_FILE names /nonexistent/token, which cannot be read (ENOENT)",
    );
  });

  it("prefers COSTPLUGIN_BILLING_TOKEN over the configuration file", () => {
    const cfg = config({ token: "${OTHER_VARIABLE}" });
    const resolved = resolveCredentials(cfg, {
      env: {
        COSTPLUGIN_BILLING_TOKEN: bearer,
        OTHER_VARIABLE: "tok0Other0Token0Value00000",
        COSTPLUGIN_BILLING_COST_REPORT_TOKEN: report,
      },
    });
    expect(resolved.bearerToken).toBe(bearer);
    expect(resolved.bearerSource).toBe("COSTPLUGIN_BILLING_TOKEN");
  });

  it("warns about a literal token in the file without repeating it", () => {
    const cfg = config({ token: bearer }, { cost_report_token: report });
    const resolved = resolveCredentials(cfg, { env: {} });
    expect(resolved.warnings).toEqual([
      "credentials.token holds a literal token: use a ${ENV_VAR} reference or COSTPLUGIN_BILLING_TOKEN_FILE outside local development",
      "params.cost_report_token holds a literal token: use a ${ENV_VAR} reference or COSTPLUGIN_BILLING_TOKEN_FILE outside local development",
    ]);
    expect(JSON.stringify(resolved.warnings)).not.toContain(bearer);
  });

  it("uses the cost report token when both report and workspace tokens are set", () => {
    const cfg = config({}, { workspace_token: "${COSTPLUGIN_BILLING_WORKSPACE_TOKEN}" });
    const resolved = resolveCredentials(cfg, {
      env: {
        COSTPLUGIN_BILLING_TOKEN: bearer,
        COSTPLUGIN_BILLING_COST_REPORT_TOKEN: report,
        COSTPLUGIN_BILLING_WORKSPACE_TOKEN: workspace,
      },
    });
    expect(resolved.scope).toEqual({ kind: "cost_report", token: report });
    expect(resolved.warnings).toContain(
      "both a cost report token and a workspace token are configured: the cost report token is used",
    );
    expect(resolved.secrets).toEqual([bearer, report]);
  });

  it("falls back to the workspace token when the cost report variable is not set", () => {
    const cfg = config({}, { workspace_token: "${COSTPLUGIN_BILLING_WORKSPACE_TOKEN}" });
    const resolved = resolveCredentials(cfg, {
      env: { COSTPLUGIN_BILLING_TOKEN: bearer, COSTPLUGIN_BILLING_WORKSPACE_TOKEN: workspace },
    });
    expect(resolved.scope).toEqual({ kind: "workspace", token: workspace });
    expect(resolved.warnings).toEqual([
      "COSTPLUGIN_BILLING_COST_REPORT_TOKEN is not set (referenced by params.cost_report_token): the workspace token is used instead",
    ]);
  });

  it("names every unset variable when neither report nor workspace token resolves", () => {
    const cfg = config({}, { workspace_token: "${COSTPLUGIN_BILLING_WORKSPACE_TOKEN}" });
    expect(failure(cfg, { COSTPLUGIN_BILLING_TOKEN: bearer })).toBe(
      "COSTPLUGIN_BILLING_COST_REPORT_TOKEN is not set (referenced by params.cost_report_token); COSTPLUGIN_BILLING_WORKSPACE_TOKEN is not set (referenced by params.workspace_token)",
    );
  });

  it("asks for a report or workspace token when none is configured", () => {
    const cfg = config({}, { cost_report_token: undefined });
    expect(failure(cfg, { COSTPLUGIN_BILLING_TOKEN: bearer })).toBe(
      "no cost report or workspace token configured: set COSTPLUGIN_BILLING_COST_REPORT_TOKEN (preferred), COSTPLUGIN_BILLING_WORKSPACE_TOKEN, params.cost_report_token or params.workspace_token",
    );
  });

  it("asks for an API token when none is configured", () => {
    const cfg = parseBillingConfig({ version: 0.1, source: "v" }, { env: {} });
    expect(failure(cfg, { COSTPLUGIN_BILLING_COST_REPORT_TOKEN: report })).toBe(
      "no API token configured: set COSTPLUGIN_BILLING_TOKEN_FILE, COSTPLUGIN_BILLING_TOKEN or credentials.token",
    );
  });

  it("treats an empty override variable as unset", () => {
    const resolved = resolveCredentials(config({ token: "${MY_TOKEN}" }), {
      env: {
        COSTPLUGIN_BILLING_TOKEN: "",
        MY_TOKEN: bearer,
        COSTPLUGIN_BILLING_COST_REPORT_TOKEN: report,
      },
    });
    expect(resolved.bearerSource).toBe("MY_TOKEN (referenced by credentials.token)");
  });
});
