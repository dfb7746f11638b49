import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { parsePort } from "./serve.js";

const main = fileURLToPath(new URL("../main.ts", import.meta.url));

describe("parsePort", () => {
  it("accepts 0 to 65535", () => {
    expect(parsePort("0")).toBe(0);
    expect(parsePort("8080")).toBe(8080);
    expect(parsePort("65535")).toBe(65535);
  });

  it("rejects anything else, naming the source and the value", () => {
    for (const bad of ["", "-1", "65536", "80a", "1e3", " 80"]) {
      expect(() => parsePort(bad, "COSTPLUGIN_PLUGIN_PORT")).toThrow(
        `COSTPLUGIN_PLUGIN_PORT must be a port number from 0 to 65535, got "${bad}"`,
      );
    }
  });
});

let child: ChildProcessWithoutNullStreams | undefined;

afterEach(() => {
  child?.kill("SIGKILL");
  child = undefined;
});

/** Starts `costplugin serve` from source and resolves with its port once it prints PORT=<n>. */
function startServe(
  args: string[],
  env: Record<string, string>,
): Promise<{ port: number; stderr: () => string }> {
  const dataDir = mkdtempSync(join(tmpdir(), "costplugin-serve-"));
  const proc = spawn(
    process.execPath,
    ["--conditions=source", "--import", "tsx", main, "serve", ...args],
    {
      env: {
        PATH: process.env.PATH ?? "",
        COSTPLUGIN_DATABASE_URL: join(dataDir, "api.sqlite"),
        ...env,
      },
    },
  );
  child = proc;
  let stderr = "";
  proc.stderr.on("data", (c: Buffer) => {
    stderr += c.toString("utf8");
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no PORT line; stderr: ${stderr}`)), 25_000);
    proc.once("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
    createInterface({ input: proc.stdout }).on("line", (line) => {
      const m = /^PORT=(\d+)$/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve({ port: Number(m[1]), stderr: () => stderr });
      }
    });
  });
}

describe("serveCommand", () => {
  it("serves the reference plugin and the REST API on one port and exits 0 on SIGTERM", async () => {
    const { port, stderr } = await startServe(["--port", "0"], {});
    const base = `http://127.0.0.1:${port}`;
    const res = await fetch(`${base}/costplugin.v1.CostSourceService/GetProjectedCost`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        resource: { provider: "aws", resourceType: "ec2", sku: "t3.micro", region: "us-east-1" },
      }),
    });
    expect(await res.json()).toMatchObject({
      unitPrice: 0.0104,
      currency: "USD",
      costPerMonth: 7.592,
    });

    // No signing configuration: a per-run admin token is printed once and works.
    const token = /Admin token for this run: (\S+)/.exec(stderr())?.[1];
    expect(token).toBeDefined();
    expect((await fetch(`${base}/api/v1/models`)).status).toBe(401);
    const models = await fetch(`${base}/api/v1/models`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(models.status).toBe(200);

    const exited = new Promise<number | null>((r) => child?.once("exit", (code) => r(code)));
    child?.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("does not print a token when COSTPLUGIN_JWT_SECRET is configured, and never prints the secret", async () => {
    const secret = "serve-test-secret-0123456789abcdef0123456789";
    const { port, stderr } = await startServe([], {
      COSTPLUGIN_PLUGIN_PORT: "0",
      COSTPLUGIN_JWT_SECRET: secret,
    });
    expect(port).toBeGreaterThan(0);
    await fetch(`http://127.0.0.1:${port}/api/v1/models`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(stderr()).not.toContain("Admin token");
    expect(stderr()).not.toContain(secret);
  });

  it("refuses an invalid port with a clear message", async () => {
    await expect(startServe([], { COSTPLUGIN_PLUGIN_PORT: "eighty" })).rejects.toThrow(
      /COSTPLUGIN_PLUGIN_PORT must be a port number from 0 to 65535, got "eighty"/,
    );
  });
});
