import { createServer } from "node:net";
import type { Interceptor } from "@connectrpc/connect";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { CostSourceService } from "@costplugin/proto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createCostPluginClient } from "./cost-plugin-client.js";
import { createCostPluginTransport } from "./cost-plugin-transport.js";

interface Captured {
  url: string;
  method: string;
  contentType: string | null;
}

/** A fetch that records the request and fails like an unreachable server. */
function recordingFetch(captured: Captured[]): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    captured.push({
      url: request.url,
      method: request.method,
      contentType: request.headers.get("content-type"),
    });
    throw new TypeError("Failed to fetch");
  };
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

const secret = "s3cr3t-token-value";
const authorization: Interceptor = (next) => (request) => {
  request.header.set("Authorization", `Bearer ${secret}`);
  return next(request);
};

describe("createCostPluginTransport", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("speaks Connect JSON by default", async () => {
    const captured: Captured[] = [];
    const transport = createCostPluginTransport({
      baseUrl: "http://127.0.0.1:1/",
      fetch: recordingFetch(captured),
    });
    await createClient(CostSourceService, transport)
      .name({})
      .catch(() => undefined);
    expect(captured).toEqual([
      {
        url: "http://127.0.0.1:1/costplugin.v1.CostSourceService/Name",
        method: "POST",
        contentType: "application/json",
      },
    ]);
  });

  it("speaks Connect binary, gRPC-web and Connect GET when asked", async () => {
    const captured: Captured[] = [];
    const fetch = recordingFetch(captured);
    const baseUrl = "http://127.0.0.1:1/prefix";
    for (const transport of [
      createCostPluginTransport({ baseUrl, protocol: "connect-binary", fetch }),
      createCostPluginTransport({ baseUrl, protocol: "grpc-web", fetch }),
      createCostPluginTransport({ baseUrl, useHttpGet: true, fetch }),
      createCostPluginTransport({ baseUrl, protocol: "grpc-web", useHttpGet: true, fetch }),
    ]) {
      await createClient(CostSourceService, transport)
        .name({})
        .catch(() => undefined);
    }
    expect(captured.map((request) => [request.method, request.contentType])).toEqual([
      ["POST", "application/proto"],
      ["POST", "application/grpc-web+proto"],
      ["GET", null],
      ["POST", "application/grpc-web+proto"],
    ]);
    expect(captured[2]?.url).toMatch(
      /^http:\/\/127\.0\.0\.1:1\/prefix\/costplugin\.v1\.CostSourceService\/Name\?.*encoding=json/,
    );
  });

  it("reports a server that cannot be reached as unavailable", async () => {
    const port = await closedPort();
    const client = createClient(
      CostSourceService,
      createCostPluginTransport({ baseUrl: `http://127.0.0.1:${port}` }),
    );
    const error = await client.name({}).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).code).toBe(Code.Unavailable);
  });

  it("never puts a header secret in the error of a failed call", async () => {
    const port = await closedPort();
    const client = createCostPluginClient({
      baseUrl: `http://127.0.0.1:${port}`,
      interceptors: [authorization],
      retry: false,
    });
    const error = await client.costSource.name({}).catch((reason: unknown) => reason);
    const seen = [
      String(error),
      (error as ConnectError).message,
      JSON.stringify(error),
      String((error as ConnectError).cause),
      [...(error as ConnectError).metadata.entries()].join(","),
    ].join("\n");
    expect(seen).not.toContain(secret);
  });

  it("looks up the global fetch at call time", async () => {
    const captured: Captured[] = [];
    const transport = createCostPluginTransport({ baseUrl: "http://127.0.0.1:1" });
    vi.stubGlobal("fetch", recordingFetch(captured));
    await createClient(CostSourceService, transport)
      .name({})
      .catch(() => undefined);
    expect(captured).toHaveLength(1);
  });

  it("leaves the error of an aborted call to Connect (canceled)", async () => {
    const controller = new AbortController();
    const transport = createCostPluginTransport({
      baseUrl: "http://127.0.0.1:1",
      fetch: (_input, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener("abort", () => reject(new TypeError("aborted")));
          controller.abort();
        }),
    });
    const error = await createClient(CostSourceService, transport)
      .name({}, { signal: controller.signal })
      .catch((reason: unknown) => reason);
    expect((error as ConnectError).code).toBe(Code.Canceled);
  });

  it("rejects base URLs that are not absolute http(s) URLs", () => {
    for (const baseUrl of [
      "",
      "/relative",
      "127.0.0.1:8080",
      "ftp://host",
      "javascript:alert(1)",
    ]) {
      expect(() => createCostPluginTransport({ baseUrl })).toThrow(RangeError);
    }
  });

  it("rejects base URLs with credentials without repeating them", () => {
    let message = "";
    try {
      createCostPluginTransport({ baseUrl: `https://user:${secret}@plugin.example` });
    } catch (error) {
      message = String(error);
    }
    expect(message).toMatch(/must not contain credentials/);
    expect(message).not.toContain(secret);
  });

  it("rejects base URLs with a query or fragment", () => {
    expect(() => createCostPluginTransport({ baseUrl: "http://h/?a=1" })).toThrow(RangeError);
    expect(() => createCostPluginTransport({ baseUrl: "http://h/#x" })).toThrow(RangeError);
  });

  it("rejects an unknown protocol", () => {
    expect(() =>
      createCostPluginTransport({
        baseUrl: "http://127.0.0.1:1",
        protocol: "grpc" as unknown as "grpc-web",
      }),
    ).toThrow(/protocol must be one of connect-json, connect-binary, grpc-web/);
  });
});

describe("createCostPluginClient", () => {
  it("rejects invalid resilience options where the client is created", () => {
    const baseUrl = "http://127.0.0.1:1";
    expect(() => createCostPluginClient({ baseUrl, retry: { maxAttempts: 0 } })).toThrow(
      RangeError,
    );
    expect(() =>
      createCostPluginClient({ baseUrl, circuitBreaker: { failureRateThreshold: 2 } }),
    ).toThrow(RangeError);
  });
});
