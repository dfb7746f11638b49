import type { Server, ServerResponse } from "node:http";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { create, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorCode, ErrorDetailSchema, NameResponseSchema } from "@costplugin/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CostPluginClientOptions } from "./cost-plugin-client.js";
import { createCostPluginClient } from "./cost-plugin-client.js";
import { errorDetailFromError } from "./error-detail.js";

type Answer = (response: ServerResponse) => void;

const json =
  (status: number, body: string): Answer =>
  (response) => {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(body);
  };

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64").replace(/=+$/, "");

/** A gRPC-web frame: flags, big-endian length, data. */
function frame(flags: number, data: Uint8Array): Buffer {
  const header = Buffer.alloc(5);
  header.writeUInt8(flags, 0);
  header.writeUInt32BE(data.length, 1);
  return Buffer.concat([header, data]);
}

const nameOk = toBinary(NameResponseSchema, create(NameResponseSchema, { name: "ok" }));

/** A correct answer to Name in each protocol, to show the client keeps working afterwards. */
const healthy: Record<NonNullable<CostPluginClientOptions["protocol"]>, Answer> = {
  "connect-json": json(200, '{"name":"ok"}'),
  "connect-binary": (response) => {
    response.writeHead(200, { "content-type": "application/proto" });
    response.end(Buffer.from(nameOk));
  },
  "grpc-web": (response) => {
    response.writeHead(200, { "content-type": "application/grpc-web+proto" });
    response.end(Buffer.concat([frame(0, nameOk), frame(0x80, Buffer.from("grpc-status: 0\r\n"))]));
  },
};

let answer: Answer = json(200, '{"name":"ok"}');
let requests = 0;
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    requests += 1;
    request.resume();
    request.on("end", () => answer(response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Calls Name once against the hostile server; returns the error and how many requests it made. */
async function callWith(
  hostile: Answer,
  options: Partial<CostPluginClientOptions> = {},
): Promise<{ error: ConnectError; requests: number }> {
  answer = hostile;
  requests = 0;
  const client = createCostPluginClient({
    baseUrl,
    retry: { initialDelayMs: 1, jitter: 0 },
    circuitBreaker: false,
    ...options,
  });
  const error = await client.costSource.name({}).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof ConnectError)) throw new Error(`expected a ConnectError, got ${error}`);
  const made = requests;
  answer = healthy[options.protocol ?? "connect-json"];
  expect((await client.costSource.name({})).name).toBe("ok");
  return { error, requests: made };
}

describe("a client facing a hostile or broken server", () => {
  it("ignores ErrorDetails whose bytes are not base64 or not a message", async () => {
    const { error } = await callWith(
      json(
        503,
        JSON.stringify({
          code: "unavailable",
          message: "m",
          details: [
            { type: "costplugin.v1.ErrorDetail", value: "%%%not-base64%%%" },
            { type: "costplugin.v1.ErrorDetail", value: base64(new Uint8Array([0xff, 0xff])) },
            { type: 42 },
            "string",
          ],
        }),
      ),
      { retry: false },
    );
    expect(error.code).toBe(Code.Unavailable);
    expect(errorDetailFromError(error)).toBeUndefined();
  });

  it("copes with a details field that is not a list", async () => {
    const { error } = await callWith(
      json(400, JSON.stringify({ code: "invalid_argument", message: "m", details: "x" })),
    );
    expect(errorDetailFromError(error)).toBeUndefined();
  });

  it("treats a proxy's HTML 502 page as unavailable and retries it", async () => {
    const { error, requests: made } = await callWith((response) => {
      response.writeHead(502, { "content-type": "text/html" });
      response.end("<html><body>Bad Gateway</body></html>");
    });
    expect(error.code).toBe(Code.Unavailable);
    expect(made).toBe(3);
  });

  it("rejects a 200 answer whose JSON body is not JSON, without retrying", async () => {
    const { error, requests: made } = await callWith(json(200, "{{{"));
    expect(error).toBeInstanceOf(ConnectError);
    expect(made).toBe(1);
  });

  it("rejects a truncated binary message", async () => {
    const { error } = await callWith(
      (response) => {
        response.writeHead(200, { "content-type": "application/proto" });
        response.end(Buffer.from([0x0a, 0x10, 0x61]));
      },
      { protocol: "connect-binary" },
    );
    expect(error).toBeInstanceOf(ConnectError);
  });

  it("does not wait for an absurd retry_after_seconds", async () => {
    const detail = create(ErrorDetailSchema, {
      code: ErrorCode.RATE_LIMITED,
      retryAfterSeconds: 2_147_483_647,
    });
    const { error, requests: made } = await callWith(
      json(
        429,
        JSON.stringify({
          code: "resource_exhausted",
          message: "slow down",
          details: [
            {
              type: "costplugin.v1.ErrorDetail",
              value: base64(toBinary(ErrorDetailSchema, detail)),
            },
          ],
        }),
      ),
    );
    expect(errorDetailFromError(error)?.retryAfterSeconds).toBe(2_147_483_647);
    expect(made).toBe(1);
  });

  it("reports a gRPC-web grpc-status-details-bin that is garbage as data_loss without detail", async () => {
    const { error } = await callWith(
      (response) => {
        response.writeHead(200, {
          "content-type": "application/grpc-web+proto",
          "grpc-status": "14",
          "grpc-message": "down",
          "grpc-status-details-bin": "!!!garbage!!!",
        });
        response.end();
      },
      { protocol: "grpc-web", retry: false },
    );
    expect(error.code).toBe(Code.DataLoss);
    expect(errorDetailFromError(error)).toBeUndefined();
  });

  it("reports a gRPC-web answer without status as an error", async () => {
    const { error } = await callWith(
      (response) => {
        response.writeHead(200, { "content-type": "application/grpc-web+proto" });
        response.end(Buffer.from([0x00, 0x00, 0x00, 0x00, 0x09, 0x0a]));
      },
      { protocol: "grpc-web", retry: false },
    );
    expect(error).toBeInstanceOf(ConnectError);
  });
});
