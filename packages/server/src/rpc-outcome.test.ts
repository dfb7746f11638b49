import http2 from "node:http2";
import { create, toBinary } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { CostSourceService, GetProjectedCostRequestSchema } from "@costplugin/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "./start-server.js";
import { startServer } from "./start-server.js";
import { transportMatrix } from "./testdata/clients.js";
import { createTestPlugin } from "./testdata/test-plugin.js";

const projectedPath = "/costplugin.v1.CostSourceService/GetProjectedCost";
const resource = { provider: "aws", resourceType: "ec2", sku: "t3.micro", region: "us-east-1" };
const validRequest = toBinary(
  GetProjectedCostRequestSchema,
  create(GetProjectedCostRequestSchema, { resource }),
);
/** Field 1 (resource) announcing 0x7fffffff bytes that never come. */
const notAMessage = new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x07, 0x01]);

function envelope(message: Uint8Array, flags = 0, declaredLength = message.byteLength): Uint8Array {
  const frame = new Uint8Array(5 + message.byteLength);
  frame[0] = flags;
  new DataView(frame.buffer).setUint32(1, declaredLength);
  frame.set(message, 5);
  return frame;
}

/** A valid request plus an unknown field of `size` bytes: large, yet a valid message. */
function paddedRequest(size: number): Uint8Array {
  const writer = new BinaryWriter();
  writer.raw(validRequest);
  writer.tag(99, WireType.LengthDelimited).bytes(new Uint8Array(size));
  return writer.finish();
}

/** Sends one raw gRPC request over h2c and returns status, headers and trailers. */
async function rawGrpc(url: string, body: Uint8Array, contentType = "application/grpc") {
  const session = http2.connect(url);
  try {
    return await new Promise<{
      status: number;
      trailers: http2.IncomingHttpHeaders;
      headers: http2.IncomingHttpHeaders;
    }>((resolve, reject) => {
      const stream = session.request({
        ":method": "POST",
        ":path": projectedPath,
        "content-type": contentType,
        te: "trailers",
      });
      let headers: http2.IncomingHttpHeaders = {};
      stream.on("response", (h) => {
        headers = h;
      });
      stream.on("trailers", (trailers) =>
        resolve({ status: Number(headers[":status"]), headers, trailers }),
      );
      stream.on("end", () =>
        resolve({ status: Number(headers[":status"]), headers, trailers: headers }),
      );
      stream.on("error", reject);
      stream.resume();
      stream.end(body);
    });
  } finally {
    session.close();
  }
}

/** The gRPC-web trailer frame of a response body, parsed. */
function grpcWebTrailer(body: Uint8Array): Record<string, string> {
  let offset = 0;
  while (offset + 5 <= body.byteLength) {
    const flags = body[offset] ?? 0;
    const length = new DataView(body.buffer, body.byteOffset + offset + 1, 4).getUint32(0);
    const data = body.subarray(offset + 5, offset + 5 + length);
    if (flags & 0x80) {
      return Object.fromEntries(
        new TextDecoder()
          .decode(data)
          .split("\r\n")
          .filter(Boolean)
          .map((line) => {
            const colon = line.indexOf(":");
            return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
          }),
      );
    }
    offset += 5 + length;
  }
  return {};
}

describe("withRpcOutcome", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ plugin: createTestPlugin().plugin, logger: false });
  });
  afterAll(() => server.close());

  async function stillServing() {
    const response = await fetch(`${server.url}/costplugin.v1.CostSourceService/Name`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(await response.json()).toEqual({ name: "test-plugin" });
  }

  it("answers a Connect binary body that is not a message with invalid_argument (HTTP 400)", async () => {
    const response = await fetch(`${server.url}${projectedPath}`, {
      method: "POST",
      headers: { "content-type": "application/proto" },
      body: Buffer.from(notAMessage),
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.code).toBe("invalid_argument");
    expect(body.message).toMatch(
      /^request is not a valid costplugin\.v1\.GetProjectedCostRequest message/,
    );
    await stillServing();
  });

  it("answers random bytes as Connect binary with invalid_argument", async () => {
    const response = await fetch(`${server.url}${projectedPath}`, {
      method: "POST",
      headers: { "content-type": "application/proto" },
      body: new Uint8Array([0xff, 0xfe, 0xfd, 0xfc, 0x00, 0x13, 0x37]),
    });
    expect(response.status).toBe(400);
    expect((await response.json()).code).toBe("invalid_argument");
    await stillServing();
  });

  it("answers a gRPC message that is not a valid message with INVALID_ARGUMENT", async () => {
    const { status, trailers } = await rawGrpc(server.url, envelope(notAMessage));
    expect(status).toBe(200);
    expect(trailers["grpc-status"]).toBe(String(Code.InvalidArgument));
    expect(decodeURIComponent(String(trailers["grpc-message"]))).toContain(
      "GetProjectedCostRequest",
    );
    await stillServing();
  });

  it("answers a truncated gRPC frame with INVALID_ARGUMENT", async () => {
    const frame = envelope(validRequest, 0, validRequest.byteLength + 100);
    const { trailers } = await rawGrpc(server.url, frame);
    expect(trailers["grpc-status"]).toBe(String(Code.InvalidArgument));
    await stillServing();
  });

  it("answers a frame flagged compressed without grpc-encoding with INVALID_ARGUMENT", async () => {
    const { trailers } = await rawGrpc(server.url, envelope(validRequest, 1));
    expect(trailers["grpc-status"]).toBe(String(Code.InvalidArgument));
    await stillServing();
  });

  it("answers a gRPC-web message that is not a valid message with an INVALID_ARGUMENT trailer", async () => {
    const response = await fetch(`${server.url}${projectedPath}`, {
      method: "POST",
      headers: { "content-type": "application/grpc-web+proto", "x-grpc-web": "1" },
      body: Buffer.from(envelope(notAMessage)),
    });
    expect(response.status).toBe(200);
    const trailer = grpcWebTrailer(new Uint8Array(await response.arrayBuffer()));
    expect(trailer["grpc-status"]).toBe(String(Code.InvalidArgument));
    expect(decodeURIComponent(trailer["grpc-message"] ?? "")).toContain("GetProjectedCostRequest");
    await stillServing();
  });

  it("answers a truncated gRPC-web frame with an INVALID_ARGUMENT trailer", async () => {
    const response = await fetch(`${server.url}${projectedPath}`, {
      method: "POST",
      headers: { "content-type": "application/grpc-web+proto" },
      body: Buffer.from(envelope(validRequest, 0, 4096).subarray(0, 12)),
    });
    const trailer = grpcWebTrailer(new Uint8Array(await response.arrayBuffer()));
    expect(trailer["grpc-status"]).toBe(String(Code.InvalidArgument));
    await stillServing();
  });

  it("accepts a 3 MB Connect binary request (below the 4 MiB limit)", async () => {
    const response = await fetch(`${server.url}${projectedPath}`, {
      method: "POST",
      headers: { "content-type": "application/proto" },
      body: Buffer.from(paddedRequest(3 * 1024 * 1024)),
    });
    expect(response.status).toBe(200);
  });

  it("answers a Connect JSON request over 4 MiB with resource_exhausted", async () => {
    const response = await fetch(`${server.url}${projectedPath}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ resource: { ...resource, sku: "x".repeat(4 * 1024 * 1024 + 1024) } }),
    });
    expect(response.status).toBe(429);
    expect((await response.json()).code).toBe("resource_exhausted");
    await stillServing();
  });

  it("answers a gRPC message over 4 MiB with RESOURCE_EXHAUSTED", async () => {
    const { trailers } = await rawGrpc(server.url, envelope(paddedRequest(4 * 1024 * 1024 + 1024)));
    expect(trailers["grpc-status"]).toBe(String(Code.ResourceExhausted));
    await stillServing();
  });

  it("resets an HTTP/2 upload it stopped reading once the answer is out", async () => {
    const direct = await startServer({
      plugin: createTestPlugin().plugin,
      logger: false,
      fastPath: false,
    });
    const session = http2.connect(direct.url);
    try {
      const stream = session.request({
        ":method": "POST",
        ":path": projectedPath,
        "content-type": "application/grpc",
        te: "trailers",
      });
      const trailers = new Promise<http2.IncomingHttpHeaders>((resolve) =>
        stream.once("trailers", resolve),
      );
      const closed = new Promise<number>((resolve) =>
        stream.once("close", () => resolve(stream.rstCode ?? -1)),
      );
      stream.on("error", () => {});
      stream.resume();
      // Announces 5 MiB, sends 1 MiB and never ends: only the server can close this stream.
      stream.write(envelope(new Uint8Array(1024 * 1024), 0, 5 * 1024 * 1024));
      expect((await trailers)["grpc-status"]).toBe(String(Code.ResourceExhausted));
      expect(await closed).toBe(http2.constants.NGHTTP2_CANCEL);
    } finally {
      session.destroy();
      await direct.close();
    }
  });

  describe.each(transportMatrix.filter((entry) => !entry.name.includes("GET")))(
    "with $name",
    (entry) => {
      it("answers a request over 4 MiB with resource_exhausted and keeps serving", async () => {
        const client = createClient(CostSourceService, entry.create(server.url));
        const error = await client
          .getProjectedCost({
            resource: { ...resource, tags: { big: "y".repeat(4 * 1024 * 1024 + 1024) } },
          })
          .then(
            () => undefined,
            (e: unknown) => ConnectError.from(e),
          );
        expect(error?.code).toBe(Code.ResourceExhausted);
        const response = await client.getProjectedCost({ resource });
        expect(response.currency).toBe("USD");
      });
    },
  );
});
