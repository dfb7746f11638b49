import * as http2 from "node:http2";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { base64Encode } from "@bufbuild/protobuf/wire";
import { GetProjectedCostRequestSchema, GetProjectedCostResponseSchema } from "@costplugin/proto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "./start-server.js";
import { startServer } from "./start-server.js";
import { createTestPlugin } from "./testdata/test-plugin.js";

// Connect GET puts the request message in the query (`encoding`, `message`, `base64`,
// `compression`): every malformed query gets a clear answer that blames the caller, over HTTP/1.1
// and h2c, and the server keeps answering.

const path = "/costplugin.v1.CostSourceService/GetProjectedCost";
const resource = { provider: "aws", resourceType: "ec2", sku: "t3.micro", region: "us-east-1" };
const valid = toBinary(
  GetProjectedCostRequestSchema,
  create(GetProjectedCostRequestSchema, { resource }),
);
const json = encodeURIComponent(JSON.stringify({ resource }));

interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly bytes: Uint8Array;
  readonly body: { code?: string; message?: string; unitPrice?: number };
}

function answer(status: number, contentType: string, bytes: Uint8Array): Answer {
  const isJson = contentType.startsWith("application/json");
  return {
    status,
    contentType,
    bytes,
    body: isJson ? JSON.parse(new TextDecoder().decode(bytes)) : {},
  };
}

async function getOverHttp1(url: string): Promise<Answer> {
  const response = await fetch(url);
  const bytes = new Uint8Array(await response.arrayBuffer());
  return answer(response.status, response.headers.get("content-type") ?? "", bytes);
}

function getOverH2c(url: string): Promise<Answer> {
  const { origin, pathname, search } = new URL(url);
  return new Promise((resolve, reject) => {
    const session = http2.connect(origin);
    session.on("error", reject);
    const stream = session.request({ ":method": "GET", ":path": `${pathname}${search}` });
    let status = 0;
    let contentType = "";
    const chunks: Buffer[] = [];
    stream.on("response", (headers) => {
      status = Number(headers[":status"]);
      contentType = String(headers["content-type"] ?? "");
    });
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => {
      session.close();
      try {
        resolve(answer(status, contentType, Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    });
    stream.on("error", reject);
  });
}

describe.each([
  ["HTTP/1.1", getOverHttp1],
  ["h2c", getOverH2c],
])("startServer answering Connect GET over %s", (_label, get) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ plugin: createTestPlugin().plugin, logger: false });
  });
  afterAll(() => server.close());

  const call = (query: string) => get(`${server.url}${path}?${query}`);

  async function expectStillServing() {
    const answer = await call(`encoding=json&message=${json}`);
    expect(answer).toMatchObject({ status: 200, body: { unitPrice: 0.0104 } });
  }

  it("answers a base64url binary message (base64=1)", async () => {
    const answer = await call(`encoding=proto&base64=1&message=${base64Encode(valid, "url")}`);
    expect([answer.status, answer.contentType]).toEqual([200, "application/proto"]);
    expect(fromBinary(GetProjectedCostResponseSchema, answer.bytes).unitPrice).toBe(0.0104);
  });

  it("answers a message param that is not JSON with invalid_argument naming the message type", async () => {
    const answer = await call(`encoding=json&message=${encodeURIComponent('{"resource":')}`);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("invalid_argument");
    expect(answer.body.message).toContain("costplugin.v1.GetProjectedCostRequest");
    await expectStillServing();
  });

  it("answers a JSON message of the wrong shape with invalid_argument", async () => {
    const answer = await call(`encoding=json&message=${encodeURIComponent('{"resource":5}')}`);
    expect(answer).toMatchObject({ status: 400, body: { code: "invalid_argument" } });
    await expectStillServing();
  });

  it("answers base64=1 bytes that are not a message with invalid_argument naming the type", async () => {
    const truncated = base64Encode(valid.subarray(0, valid.byteLength - 3), "url");
    const answer = await call(`encoding=proto&base64=1&message=${truncated}`);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("invalid_argument");
    expect(answer.body.message).toContain("costplugin.v1.GetProjectedCostRequest");
    await expectStillServing();
  });

  it("answers base64=1 with a message that is not base64 with invalid_argument, not internal", async () => {
    const answer = await call("encoding=proto&base64=1&message=%21%21not*base64%21%21");
    expect(answer.body.code).toBe("invalid_argument");
    expect(answer.status).toBe(400);
    await expectStillServing();
  });

  it("answers an unknown encoding with 415 naming the encoding sent and the accepted ones", async () => {
    const answer = await call(`encoding=xml&message=${json}`);
    expect(answer.status).toBe(415);
    expect(answer.body.message).toContain('"xml"');
    expect(answer.body.message).toContain("json");
    expect(answer.body.message).toContain("proto");
    await expectStillServing();
  });

  it("answers an unknown compression with unimplemented naming it, as the Connect protocol says", async () => {
    const answer = await call(`encoding=json&compression=lzma&message=${json}`);
    expect(answer).toMatchObject({ status: 501, body: { code: "unimplemented" } });
    expect(answer.body.message).toContain("lzma");
    await expectStillServing();
  });
});
