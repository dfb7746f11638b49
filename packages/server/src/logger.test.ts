import { describe, expect, it } from "vitest";
import { createServerLogger, redactNestedCredentials, urlForLog } from "./logger.js";

describe("urlForLog", () => {
  it("keeps a path without query as it is", () => {
    expect(urlForLog("/costplugin.v1.CostSourceService/Name")).toBe(
      "/costplugin.v1.CostSourceService/Name",
    );
  });

  it("redacts credential-like query values and Connect GET payloads", () => {
    const url = urlForLog("/x?access_token=abc&apiKey=def&message=%7B%7D&encoding=json");
    expect(url).not.toContain("abc");
    expect(url).not.toContain("def");
    expect(url).not.toContain("%7B%7D");
    expect(url).toContain("encoding=json");
  });

  it("shortens long values", () => {
    expect(urlForLog(`/x?q=${"a".repeat(500)}`).length).toBeLessThan(100);
  });
});

const secret = "s3cr3t-value";

describe("redactNestedCredentials", () => {
  it("returns a line of plain fields as it is", () => {
    const fields = { service: "a", code: "ok", durationMs: 1.5, nested: { region: "x" } };
    expect(redactNestedCredentials(fields)).toBe(fields);
  });

  it("censors credentials one level down and credential headers two levels down, copying only what changes", () => {
    const upstream = {
      token: secret,
      region: "us-east-1",
      headers: { Authorization: secret, accept: "json" },
      request: { headers: { "x-api-key": secret }, url: "/x" },
    };
    const fields = { upstream, headers: { "set-cookie": secret }, other: { id: 1 } };
    const redacted = redactNestedCredentials(fields);
    expect(redacted).toEqual({
      upstream: {
        token: "[Redacted]",
        region: "us-east-1",
        headers: { Authorization: "[Redacted]", accept: "json" },
        request: { headers: { "x-api-key": "[Redacted]" }, url: "/x" },
      },
      headers: { "set-cookie": "[Redacted]" },
      other: { id: 1 },
    });
    expect(redacted.other).toBe(fields.other);
    expect(upstream.token).toBe(secret);
    expect(upstream.headers.Authorization).toBe(secret);
  });

  it("leaves err, req and res to pino's serializers and paths", () => {
    const err = { token: secret };
    expect(redactNestedCredentials({ err }).err).toBe(err);
  });
});

describe("createServerLogger", () => {
  it("never writes a credential at the top level, one level down, in child bindings or in errors", () => {
    const lines: string[] = [];
    const logger = createServerLogger({
      options: {},
      stream: { write: (line: string) => void lines.push(line) },
    });
    logger.info({ token: secret, upstream: { apiKey: secret, headers: { cookie: secret } } }, "a");
    logger
      .child({ requestId: "r1", ctx: { password: secret } })
      .child({ key: secret })
      .info("b");
    const error = Object.assign(new Error("upstream answered 401"), {
      token: secret,
      headers: { authorization: secret },
      config: { headers: { authorization: secret } },
      response: { config: { headers: { cookie: secret } } },
    });
    logger.error({ err: error }, "c");
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).not.toContain(secret);
    const [first, second, third] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(first).toMatchObject({ token: "[Redacted]", upstream: { apiKey: "[Redacted]" } });
    expect(second).toMatchObject({ requestId: "r1", ctx: { password: "[Redacted]" } });
    expect(third).toMatchObject({
      err: { message: "upstream answered 401", token: "[Redacted]", type: "Error" },
    });
  });
});
