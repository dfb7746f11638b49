import type { ChildProcessByStdio } from "node:child_process";
import { spawn } from "node:child_process";
import { once } from "node:events";
import net from "node:net";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { secretToken } from "./testdata/test-plugin.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const script = fileURLToPath(new URL("./testdata/run-test-plugin.ts", import.meta.url));

interface PluginProcess {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  stdout(): string;
  stderr(): string;
  /** Resolves with the port of the `PORT=<n>` line. */
  readonly port: Promise<number>;
  /** Resolves with the exit code. */
  readonly exited: Promise<number | null>;
}

/** Runs the test plugin as a host would: a child process with arguments and environment. */
function runPluginProcess(args: string[], env: Record<string, string> = {}): PluginProcess {
  const child = spawn(
    process.execPath,
    ["--conditions=source", "--import", "tsx", script, ...args],
    {
      cwd: packageDir,
      env: { PATH: process.env.PATH ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = once(child, "exit").then(([code]) => code as number | null);
  const port = new Promise<number>((resolve, reject) => {
    const check = () => {
      const match = /^PORT=(\d+)\n/.exec(stdout);
      if (match) resolve(Number(match[1]));
    };
    child.stdout.on("data", check);
    void exited.then(() => reject(new Error(`exited before listening: ${stderr}`)));
  });
  // Tests that expect no PORT line never await it.
  port.catch(() => undefined);
  return { child, stdout: () => stdout, stderr: () => stderr, port, exited };
}

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, "close");
  return port;
}

describe("runPlugin", () => {
  it("prints one PORT line on stdout, logs JSON on stderr and exits 0 on SIGTERM", async () => {
    const plugin = runPluginProcess([], { PORT: "1" });
    const port = await plugin.port;
    expect(port).toBeGreaterThan(1);
    const response = await fetch(`http://127.0.0.1:${port}/costplugin.v1.CostSourceService/Name`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${secretToken}`,
        "x-request-id": "child-1",
      },
      body: "{}",
    });
    expect(await response.json()).toEqual({ name: "test-plugin" });
    plugin.child.kill("SIGTERM");
    expect(await plugin.exited).toBe(0);
    expect(plugin.stdout()).toBe(`PORT=${port}\n`);
    const lines = plugin.stderr().trim().split("\n");
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.some((entry) => entry.requestId === "child-1" && entry.code === "ok")).toBe(
      true,
    );
    expect(
      entries.some((entry) => entry.msg === "shutting down" && entry.signal === "SIGTERM"),
    ).toBe(true);
    expect(plugin.stderr()).not.toContain(secretToken);
  });

  it("listens on COSTPLUGIN_PLUGIN_PORT, lets --port win over it, and exits 0 on SIGINT", async () => {
    const [wanted, ignored] = [await freePort(), await freePort()];
    const fromEnv = runPluginProcess([], { COSTPLUGIN_PLUGIN_PORT: String(ignored), PORT: "2" });
    expect(await fromEnv.port).toBe(ignored);
    fromEnv.child.kill("SIGINT");
    expect(await fromEnv.exited).toBe(0);

    const fromFlag = runPluginProcess(["--port", String(wanted)], {
      COSTPLUGIN_PLUGIN_PORT: String(ignored),
    });
    expect(await fromFlag.port).toBe(wanted);
    expect((await fetch(`http://127.0.0.1:${wanted}/healthz`)).status).toBe(200);
    fromFlag.child.kill("SIGINT");
    expect(await fromFlag.exited).toBe(0);
  });

  it("refuses an invalid port with a clear message on stderr and exit status 2", async () => {
    const plugin = runPluginProcess(["--port=http"]);
    expect(await plugin.exited).toBe(2);
    expect(plugin.stdout()).toBe("");
    const [entry] = plugin
      .stderr()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(entry.msg).toBe(
      'invalid --port: got "http", expected an integer from 0 to 65535 (0: any free port)',
    );
  });

  it("exits 1 with a message when the port is taken", async () => {
    const blocker = net.createServer().listen(0, "127.0.0.1");
    await once(blocker, "listening");
    const { port } = blocker.address() as net.AddressInfo;
    try {
      const plugin = runPluginProcess([`--port=${port}`]);
      expect(await plugin.exited).toBe(1);
      expect(plugin.stdout()).toBe("");
      expect(plugin.stderr()).toContain(`cannot listen on 127.0.0.1:${port}`);
    } finally {
      blocker.close();
    }
  });
});
