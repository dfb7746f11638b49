import { describe, expect, it } from "vitest";
import { createCostPluginNodeTransport } from "./node-transport.js";

describe("createCostPluginNodeTransport", () => {
  const baseUrl = "http://127.0.0.1:1";

  it("creates a transport for every protocol and HTTP version it supports", () => {
    for (const protocol of ["connect-json", "connect-binary", "grpc-web"] as const) {
      for (const httpVersion of ["1.1", "2"] as const) {
        expect(createCostPluginNodeTransport({ baseUrl, protocol, httpVersion })).toBeDefined();
      }
    }
    expect(createCostPluginNodeTransport({ baseUrl, protocol: "grpc" })).toBeDefined();
  });

  it("rejects gRPC over HTTP/1.1", () => {
    expect(() =>
      createCostPluginNodeTransport({ baseUrl, protocol: "grpc", httpVersion: "1.1" }),
    ).toThrow(/requires httpVersion "2"/);
  });

  it("rejects an unknown protocol or HTTP version", () => {
    expect(() =>
      createCostPluginNodeTransport({ baseUrl, protocol: "soap" as unknown as "grpc" }),
    ).toThrow(/protocol must be one of connect-json, connect-binary, grpc-web, grpc/);
    expect(() =>
      createCostPluginNodeTransport({ baseUrl, httpVersion: "3" as unknown as "2" }),
    ).toThrow(RangeError);
  });

  it("rejects a base URL with credentials", () => {
    expect(() => createCostPluginNodeTransport({ baseUrl: "http://a:b@127.0.0.1:1" })).toThrow(
      /credentials/,
    );
  });
});
