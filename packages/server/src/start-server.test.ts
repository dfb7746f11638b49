import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { findTrailerError } from "@connectrpc/connect/protocol-grpc";
import { CostSourceService, ErrorCode, ErrorDetailSchema } from "@costplugin/proto";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "./start-server.js";
import { startServer } from "./start-server.js";
import { transportMatrix } from "./testdata/clients.js";
import { createTestPlugin } from "./testdata/test-plugin.js";

const resource = { provider: "aws", resourceType: "ec2", sku: "t3.micro", region: "us-east-1" };
const protoRoot = fileURLToPath(new URL("../../../proto", import.meta.url));
const buf = fileURLToPath(new URL("../node_modules/.bin/buf", import.meta.url));
const projectedPath = "/costplugin.v1.CostSourceService/GetProjectedCost";
const run = promisify(execFile);

interface GrpcJsCostSource extends grpc.Client {
  GetProjectedCost(
    request: object,
    metadata: grpc.Metadata,
    callback: (
      error: grpc.ServiceError | null,
      response?: { unit_price: number; currency: string },
    ) => void,
  ): grpc.ClientUnaryCall;
}

/** A grpc-js client of CostSourceService built from the .proto files. */
function grpcJsClient(url: string): GrpcJsCostSource {
  const definition = protoLoader.loadSync("costplugin/v1/costsource.proto", {
    includeDirs: [protoRoot],
    keepCase: true,
    defaults: true,
  });
  const loaded = grpc.loadPackageDefinition(definition) as unknown as {
    costplugin: {
      v1: {
        CostSourceService: new (
          address: string,
          credentials: grpc.ChannelCredentials,
        ) => GrpcJsCostSource;
      };
    };
  };
  return new loaded.costplugin.v1.CostSourceService(
    new URL(url).host,
    grpc.credentials.createInsecure(),
  );
}

/** Runs one grpc-js unary call, resolving with the response or the error and the headers. */
function grpcJsCall(client: GrpcJsCostSource, request: object, metadata = new grpc.Metadata()) {
  return new Promise<{
    error: grpc.ServiceError | null;
    response: unknown;
    header: grpc.Metadata | undefined;
  }>((resolve) => {
    let header: grpc.Metadata | undefined;
    const call = client.GetProjectedCost(request, metadata, (error, response) =>
      resolve({ error, response, header }),
    );
    call.on("metadata", (received: grpc.Metadata) => {
      header = received;
    });
  });
}

describe("startServer", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ plugin: createTestPlugin().plugin, logger: false });
  });
  afterAll(() => server.close());

  it("listens on an ephemeral port of 127.0.0.1 and reports its URL", () => {
    expect(server.host).toBe("127.0.0.1");
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
  });

  describe.each(transportMatrix)("with $name", (entry) => {
    it("answers a projected cost and echoes the request id", async () => {
      const client = createClient(CostSourceService, entry.create(server.url));
      let requestId: string | null = null;
      const response = await client.getProjectedCost(
        { resource },
        {
          headers: { "x-request-id": `matrix-${entry.name.replace(/[^a-z0-9]/gi, "-")}` },
          onHeader: (header) => {
            requestId = header.get("x-request-id");
          },
        },
      );
      expect(response.unitPrice).toBe(0.0104);
      expect(response.currency).toBe("USD");
      expect(requestId).toBe(`matrix-${entry.name.replace(/[^a-z0-9]/gi, "-")}`);
    });

    it("carries a plugin error with its code and ErrorDetail", async () => {
      const client = createClient(CostSourceService, entry.create(server.url));
      const error = await client
        .getProjectedCost({ resource: { ...resource, sku: "limited" } })
        .then(
          () => undefined,
          (e: unknown) => ConnectError.from(e),
        );
      expect(error?.code).toBe(Code.ResourceExhausted);
      const [detail] = error?.findDetails(ErrorDetailSchema) ?? [];
      expect(detail?.code).toBe(ErrorCode.RATE_LIMITED);
      expect(detail?.retryAfterSeconds).toBe(7);
    });

    it("carries a 3 MB response message", async () => {
      const client = createClient(CostSourceService, entry.create(server.url));
      const response = await client.getPricingSpec({ resource: { ...resource, sku: "large" } });
      expect(response.spec?.description.length).toBe(3 * 1024 * 1024);
    });

    it("answers an unexpected plugin failure as internal without its message", async () => {
      const client = createClient(CostSourceService, entry.create(server.url));
      const error = await client.getProjectedCost({ resource: { ...resource, sku: "boom" } }).then(
        () => undefined,
        (e: unknown) => ConnectError.from(e),
      );
      expect(error?.code).toBe(Code.Internal);
      expect(error?.rawMessage).toBe("internal error");
    });
  });

  describe("with @grpc/grpc-js", () => {
    let client: GrpcJsCostSource;
    beforeAll(() => {
      client = grpcJsClient(server.url);
    });
    afterAll(() => client.close());

    it("answers a projected cost and echoes x-request-id in the response headers", async () => {
      const metadata = new grpc.Metadata();
      metadata.set("x-request-id", "grpc-js-1");
      const { error, response, header } = await grpcJsCall(
        client,
        { resource: { provider: "aws", resource_type: "ec2", sku: "t3.micro" } },
        metadata,
      );
      expect(error).toBeNull();
      expect(response).toMatchObject({ unit_price: 0.0104, currency: "USD" });
      expect(header?.get("x-request-id")).toEqual(["grpc-js-1"]);
    });

    it("receives a plugin error with its status and a decodable ErrorDetail", async () => {
      const { error } = await grpcJsCall(client, {
        resource: { provider: "aws", resource_type: "ec2", sku: "limited" },
      });
      expect(error?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
      const detailsBin = error?.metadata.get("grpc-status-details-bin")[0] as Buffer;
      const trailer = new Headers({
        "grpc-status": String(error?.code),
        "grpc-message": "vendor rate limit",
        "grpc-status-details-bin": detailsBin.toString("base64"),
      });
      const [detail] = findTrailerError(trailer)?.findDetails(ErrorDetailSchema) ?? [];
      expect(detail?.code).toBe(ErrorCode.RATE_LIMITED);
    });

    it("receives RESOURCE_EXHAUSTED for a message over 4 MiB and keeps the channel usable", async () => {
      const big = {
        resource: {
          provider: "aws",
          resource_type: "ec2",
          tags: { big: "z".repeat(5 * 1024 * 1024) },
        },
      };
      const { error } = await grpcJsCall(client, big);
      expect(error?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
      const { error: next } = await grpcJsCall(client, {
        resource: { provider: "aws", resource_type: "ec2" },
      });
      expect(next).toBeNull();
    });

    it("receives UNIMPLEMENTED for a method the server does not know", async () => {
      const call = await new Promise<grpc.ServiceError | null>((resolve) => {
        client.makeUnaryRequest(
          "/costplugin.v1.CostSourceService/NoSuchMethod",
          (value: Buffer) => value,
          (value: Buffer) => value,
          Buffer.alloc(0),
          (error) => resolve(error),
        );
      });
      expect(call?.code).toBe(grpc.status.UNIMPLEMENTED);
    });
  });

  describe("with buf curl", () => {
    const data = JSON.stringify({ resource });
    it.each([
      ["grpc", ["--http2-prior-knowledge"]],
      ["grpcweb", []],
      ["grpcweb", ["--http2-prior-knowledge"]],
      ["connect", []],
      ["connect", ["--http2-prior-knowledge"]],
    ])("calls GetProjectedCost with --protocol %s %s", async (protocol, flags) => {
      const { stdout } = await run(buf, [
        "curl",
        "--schema",
        protoRoot,
        "--protocol",
        protocol,
        ...flags,
        "--data",
        data,
        `${server.url}${projectedPath}`,
      ]);
      expect(JSON.parse(stdout)).toMatchObject({ unitPrice: 0.0104, currency: "USD" });
    });

    it("reports a plugin error with its code", async () => {
      const failure = await run(buf, [
        "curl",
        "--schema",
        protoRoot,
        "--protocol",
        "grpc",
        "--http2-prior-knowledge",
        "--data",
        JSON.stringify({ resource: { ...resource, sku: "limited" } }),
        `${server.url}${projectedPath}`,
      ]).then(
        () => undefined,
        (error: { stderr: string }) => error,
      );
      expect(failure?.stderr).toContain("resource_exhausted");
      expect(failure?.stderr).toContain("vendor rate limit");
    });
  });

  describe("with plain fetch and Connect JSON", () => {
    it("answers a POST", async () => {
      const response = await fetch(`${server.url}${projectedPath}`, {
        method: "POST",
        headers: { "content-type": "application/json", "connect-protocol-version": "1" },
        body: JSON.stringify({ resource }),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ unitPrice: 0.0104 });
    });

    it("answers a GET", async () => {
      const message = encodeURIComponent(JSON.stringify({ resource }));
      const response = await fetch(
        `${server.url}${projectedPath}?connect=v1&encoding=json&message=${message}`,
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ costPerMonth: 7.592 });
    });

    it("answers a Connect error as JSON with the HTTP status of its code", async () => {
      const response = await fetch(`${server.url}${projectedPath}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ resource: { ...resource, sku: "limited" } }),
      });
      expect(response.status).toBe(429);
      const body = await response.json();
      expect(body.code).toBe("resource_exhausted");
      expect(body.details[0].type).toBe("costplugin.v1.ErrorDetail");
    });

    it("answers an unknown path with a JSON 404", async () => {
      const response = await fetch(`${server.url}/costplugin.v1.CostSourceService/Nope`, {
        method: "POST",
      });
      expect(response.status).toBe(404);
      expect((await response.json()).statusCode).toBe(404);
    });
  });
});
