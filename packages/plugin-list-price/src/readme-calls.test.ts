import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { RunningServer } from "@costplugin/server";
import { startServer } from "@costplugin/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createListPricePlugin } from "./list-price-plugin.js";
import {
  curlRequest,
  readmeAddress,
  readmeBlocks,
  repositoryRoot,
  shellCommands,
} from "./readme-examples/readme-snippets.js";

// Every example of the repository README's "Call a plugin" section, run as written against the
// reference plugin on a real server (only the address is replaced), so the README cannot rot.

const run = promisify(execFile);
const buf = fileURLToPath(new URL("../node_modules/.bin/buf", import.meta.url));
const browserExample = new URL("./readme-examples/browser-client.ts", import.meta.url);

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ plugin: createListPricePlugin(), logger: false });
});
afterAll(() => server?.close());

function blocksOf(heading: string, language: string): string[] {
  return readmeBlocks(heading)
    .filter((block) => block.language === language)
    .map((block) => block.text);
}

async function send(words: string[]): Promise<{ status: number; body: unknown }> {
  const request = curlRequest(words, server.url);
  const response = await fetch(request.url, request);
  return { status: response.status, body: await response.json() };
}

describe("README: curl with Connect JSON", () => {
  const [calls, failure] = blocksOf("### curl with Connect JSON", "sh");
  const commands = calls ? shellCommands(calls) : [];

  it("shows a POST and a GET", () => {
    expect(commands.map((command) => command.words.includes("-G"))).toEqual([false, true]);
  });

  it.each(commands.map((command, index) => [index, command] as const))(
    "answers command %i with exactly the output printed under it",
    async (_index, command) => {
      const printed = command.output.filter((line) => line.startsWith("{"));
      expect(printed).toHaveLength(1);
      const { status, body } = await send(command.words);
      expect(status).toBe(200);
      expect(body).toEqual(JSON.parse(printed[0] as string));
    },
  );

  it("answers the failing call with the error body shown, ErrorDetail included", async () => {
    const [command] = failure ? shellCommands(failure) : [];
    const [shown] = blocksOf("### curl with Connect JSON", "json");
    expect(command && shown).toBeTruthy();
    const { status, body } = await send(command?.words ?? []);
    expect(status).toBe(501);
    const code = /"code":"(\w+)"/.exec(shown ?? "")?.[1];
    const messageStart = /"message":"(.*?); \.\.\."/.exec(shown ?? "")?.[1]?.replaceAll('\\"', '"');
    const debug = /"debug":\{"code":"(\w+)","category":"(\w+)"/.exec(shown ?? "");
    expect(body).toMatchObject({
      code,
      details: [
        {
          type: "costplugin.v1.ErrorDetail",
          value: expect.stringMatching(/^CAkQAh/),
          debug: { code: debug?.[1], category: debug?.[2] },
        },
      ],
    });
    expect((body as { message: string }).message.startsWith(messageStart ?? "?")).toBe(true);
  });
});

describe("README: buf curl", () => {
  const [block] = blocksOf("### buf curl: gRPC and gRPC-web", "sh");
  const commands = block ? shellCommands(block) : [];

  it("shows gRPC, gRPC-web and the standard health check", () => {
    expect(commands.map((command) => command.words.slice(0, 4).join(" "))).toEqual([
      "pnpm exec buf curl",
      "pnpm exec buf curl",
      "pnpm exec buf curl",
    ]);
    const protocols = commands.map(
      (command) => command.words[command.words.indexOf("--protocol") + 1],
    );
    expect(protocols).toEqual(["grpc", "grpcweb", "grpc"]);
  });

  it("runs every command from the repository root with the answers a reader expects", async () => {
    const answers: unknown[] = [];
    for (const command of commands) {
      const args = command.words
        .slice(3)
        .map((word) => word.replace(`http://${readmeAddress}`, server.url));
      const { stdout } = await run(buf, args, { cwd: repositoryRoot });
      answers.push(JSON.parse(stdout));
    }
    expect(answers).toEqual([
      {
        unitPrice: 0.0104,
        currency: "USD",
        costPerMonth: 7.592,
        billingDetail: "on-demand Linux list price, shared tenancy, 730 h/month",
      },
      { name: "list-price" },
      { status: "SERVING" },
    ]);
  });
});

describe("README: a gRPC client (@grpc/grpc-js)", () => {
  it("prints the projected cost the comment promises when run as written", async () => {
    const [snippet] = blocksOf("### A gRPC client (`@grpc/grpc-js`)", "js");
    expect(snippet).toContain(`"${readmeAddress}"`);
    const code = (snippet ?? "").replace(readmeAddress, new URL(server.url).host);
    const { stdout } = await run(process.execPath, ["--input-type=module", "--eval", code], {
      cwd: repositoryRoot,
    });
    const promised = /console\.log\(res\); \/\/ \{ (.*), \.\.\. \}/.exec(snippet ?? "")?.[1];
    expect(promised).toBeDefined();
    for (const field of (promised ?? "").split(", ")) expect(stdout).toContain(field);
    expect(stdout).toContain("billing_detail: 'on-demand Linux list price");
  });
});

describe("README: from a browser (@costplugin/client)", () => {
  it("is the example file, which the type check compiles", () => {
    const [snippet] = blocksOf("### From a browser (`@costplugin/client`)", "ts");
    expect(snippet).toBe(readFileSync(browserExample, "utf8"));
  });

  it("logs what its comments say against a running plugin", async () => {
    const source = readFileSync(browserExample, "utf8");
    const promised = [...source.matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((m) => m[1]);
    expect(promised).toHaveLength(2);
    const realFetch = globalThis.fetch;
    const logged: unknown[] = [];
    vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) =>
      realFetch(
        String(input instanceof Request ? input.url : input).replace(
          `http://${readmeAddress}`,
          server.url,
        ),
        init,
      ),
    );
    const log = vi.spyOn(console, "log").mockImplementation((value: unknown) => {
      logged.push(value);
    });
    const error = vi.spyOn(console, "error");
    try {
      await import("./readme-examples/browser-client.js");
    } finally {
      vi.unstubAllGlobals();
      log.mockRestore();
    }
    expect(error).not.toHaveBeenCalled();
    error.mockRestore();
    expect(logged.map(String)).toEqual(promised);
  });
});
