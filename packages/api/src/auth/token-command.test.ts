import { createVerifier } from "fast-jwt";
import { describe, expect, it } from "vitest";
import { mintToken } from "./mint-token.js";
import { tokenCommand } from "./token-command.js";

const secret = "cli-secret-0123456789-0123456789-abc";

function run(args: string[], env: Record<string, string | undefined>) {
  const out: string[] = [];
  const errors: string[] = [];
  const command = tokenCommand({ env, write: (t) => out.push(t) })
    .exitOverride()
    .configureOutput({ writeErr: (t) => errors.push(t), writeOut: (t) => out.push(t) });
  let exitCode = 0;
  try {
    command.parse(args, { from: "user" });
  } catch (error) {
    exitCode = (error as { exitCode?: number }).exitCode ?? 1;
  }
  return { out: out.join(""), err: errors.join(""), exitCode };
}

describe("tokenCommand", () => {
  it("prints one token with the role, subject, issuer and audience", () => {
    const { out, exitCode } = run(["--role", "operator", "--sub", "alice", "--ttl", "15m"], {
      COSTPLUGIN_JWT_SECRET: secret,
      COSTPLUGIN_JWT_ISSUER: "https://id.example",
      COSTPLUGIN_JWT_AUDIENCE: "costplugin-api",
    });
    expect(exitCode).toBe(0);
    expect(out.endsWith("\n")).toBe(true);
    const payload = createVerifier({ key: secret })(out.trim());
    expect(payload).toMatchObject({
      roles: ["operator"],
      sub: "alice",
      iss: "https://id.example",
      aud: "costplugin-api",
    });
    expect(payload.exp - payload.iat).toBe(900);
  });

  it("fails clearly when COSTPLUGIN_JWT_SECRET is not set", () => {
    const { out, err, exitCode } = run(["--role", "admin"], {});
    expect(exitCode).toBe(2);
    expect(out).toBe("");
    expect(err).toContain("COSTPLUGIN_JWT_SECRET is not set");
  });

  it("refuses an unknown role, a missing role and a bad ttl", () => {
    expect(run(["--role", "root"], { COSTPLUGIN_JWT_SECRET: secret }).exitCode).not.toBe(0);
    expect(run([], { COSTPLUGIN_JWT_SECRET: secret }).exitCode).not.toBe(0);
    const ttl = run(["--role", "viewer", "--ttl", "soon"], { COSTPLUGIN_JWT_SECRET: secret });
    expect(ttl.exitCode).not.toBe(0);
    expect(ttl.err).toContain("invalid duration");
  });
});

describe("mintToken", () => {
  it("signs HS256 with a unique jti and a one hour default lifetime", () => {
    const a = createVerifier({ key: secret, complete: true })(
      mintToken({ secret, role: "viewer" }),
    );
    const b = createVerifier({ key: secret })(mintToken({ secret, role: "viewer" }));
    expect(a.header.alg).toBe("HS256");
    expect(a.payload.exp - a.payload.iat).toBe(3600);
    expect(a.payload.jti).not.toBe(b.jti);
  });
});
