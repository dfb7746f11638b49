// biome-ignore-all lint/suspicious/noTemplateCurlyInString: configuration files hold literal ${ENV_VAR} references
import { describe, expect, it } from "vitest";
import { defaultDatabaseUrl, defaultVendorApiUrl, parseBillingConfigText } from "./config.js";

const minimal = "version: 0.1\nsource: vendor\n";

describe("parseBillingConfigText", () => {
  it("fills every default for a minimal file", () => {
    const config = parseBillingConfigText(minimal, { env: {} });
    expect(config).toMatchObject({
      version: "0.1",
      source: "vendor",
      vendorApiUrl: defaultVendorApiUrl,
      databaseUrl: defaultDatabaseUrl,
      granularity: "day",
      groupings: ["provider", "account_id", "service", "region", "resource_id"],
      lookbackDays: 3,
      initialDays: 30,
      chunkDays: 7,
      pageSize: 5000,
      requestTimeoutMs: 30_000,
      maxAttempts: 5,
      rateLimitMaxWaitMs: 120_000,
      staleAfterMs: 48 * 3_600_000,
      projectionDays: 7,
      serveMmapBytes: 1024 * 1024 * 1024,
      tokenPrefixes: { costReport: ["cr_"], workspace: ["ws_"] },
      tokenMinLength: 16,
    });
  });

  it("rejects unknown keys at every level, naming each of them", () => {
    expect(() =>
      parseBillingConfigText(
        `${minimal}sorce: x\ncredentials:\n  tokn: a\nparams:\n  lookback: 3\n`,
        { env: {} },
      ),
    ).toThrow("unknown configuration keys: sorce, credentials.tokn, params.lookback");
  });

  it("lets the variables override the vendor URL and the store", () => {
    const config = parseBillingConfigText(
      `${minimal}params:\n  vendor_api_url: https://a.example/v2\n  database_url: ./x.db\n`,
      {
        env: {
          COSTPLUGIN_BILLING_API_URL: "http://127.0.0.1:9/v2/",
          COSTPLUGIN_BILLING_DATABASE_URL: "postgres://db/x",
        },
      },
    );
    expect(config.vendorApiUrl).toBe("http://127.0.0.1:9/v2");
    expect(config.databaseUrl).toBe("postgres://db/x");
  });

  it("resolves a ${VAR} reference in the store URL and names it when unset", () => {
    const text = `${minimal}params:\n  database_url: \${BILLING_DB}\n`;
    expect(
      parseBillingConfigText(text, { env: { BILLING_DB: "postgres://h/db" } }).databaseUrl,
    ).toBe("postgres://h/db");
    expect(() => parseBillingConfigText(text, { env: {} })).toThrow(
      "invalid configuration: BILLING_DB is not set (referenced by params.database_url)",
    );
  });

  it("refuses to send the token over plain http to another host", () => {
    expect(() =>
      parseBillingConfigText(`${minimal}params:\n  vendor_api_url: http://vendor.example/v2\n`, {
        env: {},
      }),
    ).toThrow(/params.vendor_api_url must use https/);
  });

  it("reports every invalid value at once", () => {
    expect(() =>
      parseBillingConfigText(
        "version: 2\nparams:\n  granularity: hour\n  page_size: 9000\n  groupings: provider,region\n",
        { env: {} },
      ),
    ).toThrow(
      'invalid configuration: version must be 0.1; source is required (the name of the data source); params.granularity must be "day" (the only one supported); params.groupings must include resource_id (GetActualCost is per resource); params.page_size must be an integer from 1 to 5000',
    );
  });

  it("accepts tag groupings and a comma-separated list", () => {
    const config = parseBillingConfigText(`${minimal}params:\n  groupings: resource_id,tag:env\n`, {
      env: {},
    });
    expect(config.groupings).toEqual(["resource_id", "tag:env"]);
  });

  it("does not quote the file when the YAML is broken", () => {
    const secret = "tok0Literal0Secret0123456";
    let message = "";
    try {
      parseBillingConfigText(`${minimal}credentials:\n  token: "${secret}\n  x: [`, { env: {} });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^the configuration file is not valid YAML/);
    expect(message).not.toContain(secret);
  });

  it("rejects a half-written reference instead of taking it literally", () => {
    expect(() =>
      parseBillingConfigText(`${minimal}credentials:\n  token: \${COSTPLUGIN_BILLING_TOKEN\n`, {
        env: {},
      }),
    ).toThrow("credentials.token must be either a literal or exactly one ${ENV_VAR} reference");
  });
});
