import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Code, ConnectError } from "@connectrpc/connect";
import type { CostPluginClient } from "@costplugin/client";
import { createCostPluginClient } from "@costplugin/client";
import { createCostPluginNodeClient, errorDetailFromError } from "@costplugin/client/node";
import { ErrorCode, HealthCheckResponse_Status } from "@costplugin/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readmeBlocks } from "./readme-examples/readme-snippets.js";

// The repository README's "Write a plugin" example is this file; it runs here the way a host
// runs a plugin (a child process under the host contract) and is called over every protocol.

const example = new URL("./readme-examples/tiny-ec2-plugin.ts", import.meta.url);
const packageDir = fileURLToPath(new URL("..", import.meta.url));

interface PluginProcess {
  readonly port: number;
  readonly exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
  signal(name: NodeJS.Signals): void;
}

async function startExample(): Promise<PluginProcess> {
  const child = spawn(
    process.execPath,
    ["--conditions=source", "--import", "tsx", fileURLToPath(example)],
    { cwd: packageDir, env: { PATH: process.env.PATH ?? "" }, stdio: ["ignore", "pipe", "pipe"] },
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
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on("data", () => {
      const match = /^PORT=(\d+)\n/.exec(stdout);
      if (match) resolve(Number(match[1]));
    });
    void exited.then(() => reject(new Error(`the example exited before listening: ${stderr}`)));
  });
  return {
    port,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    signal: (name) => child.kill(name),
  };
}

async function failure(call: Promise<unknown>): Promise<ConnectError> {
  const error = await call.then(
    () => expect.unreachable("the call succeeded"),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ConnectError);
  return error as ConnectError;
}

const ec2 = (sku: string, region = "us-east-1") => ({
  resource: { provider: "aws", resourceType: "ec2", sku, region },
});

describe("README: Write a plugin", () => {
  let plugin: PluginProcess;
  const nodeClients: Array<{ close(): void }> = [];
  beforeAll(async () => {
    plugin = await startExample();
  });
  afterAll(() => {
    for (const client of nodeClients) client.close();
    plugin?.signal("SIGKILL");
  });

  it("is the example file, which the type check compiles", () => {
    const [snippet] = readmeBlocks("## Write a plugin").filter((block) => block.language === "ts");
    expect(snippet?.text).toBe(readFileSync(example, "utf8"));
  });

  it("announces one PORT line on stdout and nothing else", () => {
    expect(plugin.stdout()).toBe(`PORT=${plugin.port}\n`);
  });

  const protocols: Array<[string, (baseUrl: string) => CostPluginClient]> = [
    ["Connect JSON", (baseUrl) => createCostPluginClient({ baseUrl, retry: false })],
    [
      "gRPC-web",
      (baseUrl) => createCostPluginClient({ baseUrl, protocol: "grpc-web", retry: false }),
    ],
    [
      "gRPC",
      (baseUrl) => {
        const client = createCostPluginNodeClient({ baseUrl, protocol: "grpc", retry: false });
        nodeClients.push(client);
        return client;
      },
    ],
  ];

  describe.each(protocols)("over %s", (_label, create) => {
    let client: CostPluginClient;
    beforeAll(() => {
      client = create(`http://127.0.0.1:${plugin.port}`);
    });

    it("answers Name and a projected cost at 730 hours a month", async () => {
      expect((await client.costSource.name({})).name).toBe("tiny-ec2");
      const cost = await client.costSource.getProjectedCost(ec2("t3.small"));
      expect(cost).toMatchObject({
        unitPrice: 0.0208,
        currency: "USD",
        billingDetail: "on-demand",
      });
      expect(cost.costPerMonth).toBeCloseTo(15.184, 9);
    });

    it("carries the PluginError of an unknown SKU as not_found with its ErrorDetail", async () => {
      const error = await failure(client.costSource.getProjectedCost(ec2("m5.large")));
      expect(error.code).toBe(Code.NotFound);
      expect(errorDetailFromError(error)).toMatchObject({
        code: ErrorCode.RESOURCE_NOT_FOUND,
        message: 'no price for sku "m5.large"',
      });
    });

    it("answers Supports from the declared coverage, naming what is covered", async () => {
      expect(await client.costSource.supports(ec2("t3.micro"))).toMatchObject({
        supported: true,
        reason: "aws/ec2 in us-east-1 is covered",
      });
      const elsewhere = await client.costSource.supports(ec2("t3.micro", "eu-west-1"));
      expect(elsewhere.supported).toBe(false);
      expect(elsewhere.reason).toContain("covered: us-east-1");
    });

    it("rejects a request without resource before the plugin sees it", async () => {
      const error = await failure(client.costSource.getProjectedCost({}));
      expect(error.code).toBe(Code.InvalidArgument);
      expect(errorDetailFromError(error)?.code).toBe(ErrorCode.INVALID_RESOURCE);
    });

    it("answers the methods it leaves out with unimplemented and reports serving", async () => {
      const error = await failure(client.costSource.getPricingSpec(ec2("t3.micro")));
      expect(error.code).toBe(Code.Unimplemented);
      const health = await client.observability.healthCheck({});
      expect(health.status).toBe(HealthCheckResponse_Status.SERVING);
    });
  });

  it("logs on stderr and exits 0 on SIGTERM", async () => {
    plugin.signal("SIGTERM");
    expect(await plugin.exited).toBe(0);
    expect(plugin.stdout()).toBe(`PORT=${plugin.port}\n`);
    const lines = plugin.stderr().trim().split("\n");
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });
});
