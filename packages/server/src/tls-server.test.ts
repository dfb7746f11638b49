import tls from "node:tls";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import {
  createConnectTransport,
  createGrpcTransport,
  createGrpcWebTransport,
} from "@connectrpc/connect-node";
import { CostSourceService } from "@costplugin/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "./start-server.js";
import { startServer } from "./start-server.js";
import { createSelfSignedCertificate } from "./testdata/self-signed.js";
import { createTestPlugin } from "./testdata/test-plugin.js";

const resource = { provider: "aws", resourceType: "ec2", sku: "t3.micro", region: "us-east-1" };

/** The protocol ALPN settles on when a client offers `protocols`. */
async function negotiated(port: number, ca: string, protocols: string[]): Promise<string | false> {
  const socket = tls.connect({ port, host: "127.0.0.1", ca, ALPNProtocols: protocols });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once("secureConnect", resolve);
      socket.once("error", reject);
    });
    return socket.alpnProtocol ?? false;
  } finally {
    socket.destroy();
  }
}

describe("createTlsServer", () => {
  let server: RunningServer;
  let cert: string;
  beforeAll(async () => {
    const pair = await createSelfSignedCertificate();
    cert = pair.cert;
    server = await startServer({ plugin: createTestPlugin().plugin, logger: false, tls: pair });
  });
  afterAll(() => server.close());

  it("reports an https URL", () => {
    expect(server.url).toBe(`https://127.0.0.1:${server.port}`);
  });

  it("negotiates h2 through ALPN", async () => {
    expect(await negotiated(server.port, cert, ["h2", "http/1.1"])).toBe("h2");
  });

  it("negotiates http/1.1 through ALPN on the same port", async () => {
    expect(await negotiated(server.port, cert, ["http/1.1"])).toBe("http/1.1");
  });

  const transports = [
    [
      "gRPC over h2",
      (url: string, ca: string) => createGrpcTransport({ baseUrl: url, nodeOptions: { ca } }),
    ],
    [
      "gRPC-web over HTTPS/1.1",
      (url: string, ca: string) =>
        createGrpcWebTransport({ baseUrl: url, httpVersion: "1.1", nodeOptions: { ca } }),
    ],
    [
      "Connect JSON over HTTPS/1.1",
      (url: string, ca: string) =>
        createConnectTransport({ baseUrl: url, httpVersion: "1.1", nodeOptions: { ca } }),
    ],
    [
      "Connect binary over h2",
      (url: string, ca: string) =>
        createConnectTransport({
          baseUrl: url,
          httpVersion: "2",
          useBinaryFormat: true,
          nodeOptions: { ca },
        }),
    ],
  ] as const;

  it.each(transports)("serves %s", async (_name, create) => {
    const client = createClient(CostSourceService, create(server.url, cert));
    expect((await client.getProjectedCost({ resource })).unitPrice).toBe(0.0104);
    const error = await client.getProjectedCost({ resource: { ...resource, sku: "limited" } }).then(
      () => undefined,
      (e: unknown) => ConnectError.from(e),
    );
    expect(error?.code).toBe(Code.ResourceExhausted);
  });

  it("refuses a client that does not trust the certificate and keeps serving", async () => {
    const client = createClient(
      CostSourceService,
      createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }),
    );
    await expect(client.name({})).rejects.toThrow();
    const trusted = createClient(
      CostSourceService,
      createConnectTransport({
        baseUrl: server.url,
        httpVersion: "1.1",
        nodeOptions: { ca: cert },
      }),
    );
    expect((await trusted.name({})).name).toBe("test-plugin");
  });
});
