import type { Transport } from "@connectrpc/connect";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { CostSourceService, ErrorCode } from "@costplugin/proto";
import { errorDetailFromConnectError } from "@costplugin/sdk";
import type { RunningServer } from "@costplugin/server";
import { startServer } from "@costplugin/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createListPricePlugin } from "./list-price-plugin.js";

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({
    plugin: createListPricePlugin(),
    host: "127.0.0.1",
    port: 0,
    logger: false,
  });
});

afterAll(async () => {
  await server.close();
});

const t3micro = {
  resource: {
    provider: "aws",
    resourceType: "aws_instance",
    sku: "t3.micro",
    region: "us-east-1",
    tags: {},
  },
};

const transports: Record<string, (baseUrl: string) => Transport> = {
  "Connect JSON over HTTP/1.1": (baseUrl) =>
    createConnectTransport({ baseUrl, httpVersion: "1.1" }),
  "Connect JSON over HTTP/1.1 with GET": (baseUrl) =>
    createConnectTransport({ baseUrl, httpVersion: "1.1", useHttpGet: true }),
  "gRPC over HTTP/2": (baseUrl) => createGrpcTransport({ baseUrl }),
};

describe("createListPricePlugin", () => {
  describe("served by startServer on 127.0.0.1", () => {
    for (const [protocol, transport] of Object.entries(transports)) {
      const client = () => createClient(CostSourceService, transport(server.url));

      it(`answers GetProjectedCost over ${protocol}`, async () => {
        const answer = await client().getProjectedCost(t3micro);
        expect(answer).toMatchObject({ unitPrice: 0.0104, costPerMonth: 7.592, currency: "USD" });
      });

      it(`carries the ErrorDetail of an unknown region over ${protocol} and keeps serving`, async () => {
        const error = await client()
          .getProjectedCost({ resource: { ...t3micro.resource, region: "mars-1" } })
          .then(
            () => expect.unreachable("the call succeeded"),
            (reason: unknown) => reason,
          );
        expect(error).toBeInstanceOf(ConnectError);
        expect((error as ConnectError).code).toBe(Code.Unimplemented);
        const detail = errorDetailFromConnectError(error as ConnectError);
        expect(detail?.code).toBe(ErrorCode.UNSUPPORTED_REGION);
        expect(detail?.message).toContain(
          "known regions: ap-southeast-1, eu-west-1, us-east-1, us-west-2",
        );
        expect((await client().supports(t3micro)).supported).toBe(true);
      });
    }
  });
});
