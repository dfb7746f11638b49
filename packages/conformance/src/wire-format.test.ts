import { describe, expect, it } from "vitest";
import type { RawResponse } from "./raw-request.js";
import {
  codeName,
  envelope,
  grpcWebTrailers,
  rawRpcOutcome,
  speaksProtocol,
} from "./wire-format.js";

const response = (init: Partial<RawResponse>): RawResponse => ({
  status: 200,
  headers: {},
  trailers: {},
  body: Buffer.alloc(0),
  ...init,
});

const grpcWebBody = (trailer: string) =>
  Buffer.from(envelope(new TextEncoder().encode(trailer), 0x80));

describe("envelope", () => {
  it("prefixes flags and the big-endian length", () => {
    expect([...envelope(new Uint8Array([7, 8]), 0x80)]).toEqual([0x80, 0, 0, 0, 2, 7, 8]);
  });
});

describe("grpcWebTrailers", () => {
  it("reads the trailer frame after the message frames", () => {
    const body = Buffer.concat([
      Buffer.from(envelope(new Uint8Array([1, 2, 3]))),
      grpcWebBody("grpc-status: 3\r\ngrpc-message: bad\r\n"),
    ]);
    expect(grpcWebTrailers(body)).toEqual({ "grpc-status": "3", "grpc-message": "bad" });
  });

  it("survives a truncated body", () => {
    expect(grpcWebTrailers(Buffer.from([0x80, 0, 0, 0, 50, 1]))).toEqual({});
  });
});

describe("rawRpcOutcome", () => {
  it("reads a gRPC status from trailers or from trailers-only headers", () => {
    expect(rawRpcOutcome("grpc", response({ trailers: { "grpc-status": "0" } })).kind).toBe("ok");
    expect(rawRpcOutcome("grpc", response({ headers: { "grpc-status": "8" } }))).toMatchObject({
      kind: "error",
      code: "resource_exhausted",
    });
  });

  it("reads a gRPC-web status from the body", () => {
    expect(
      rawRpcOutcome("grpc-web", response({ body: grpcWebBody("grpc-status:3\r\n") })),
    ).toMatchObject({
      kind: "error",
      code: "invalid_argument",
    });
  });

  it("calls a gRPC answer without grpc-status malformed", () => {
    expect(rawRpcOutcome("grpc", response({})).kind).toBe("malformed");
  });

  it("reads a Connect error body, and falls back to the HTTP status", () => {
    const json = { "content-type": "application/json" };
    expect(
      rawRpcOutcome(
        "connect-json",
        response({ status: 400, headers: json, body: Buffer.from('{"code":"invalid_argument"}') }),
      ),
    ).toMatchObject({ kind: "error", code: "invalid_argument" });
    expect(rawRpcOutcome("connect-binary", response({ status: 413 }))).toMatchObject({
      kind: "error",
      code: "http 413",
    });
    expect(rawRpcOutcome("connect-json", response({ status: 302 })).kind).toBe("malformed");
  });
});

describe("speaksProtocol", () => {
  it("recognises each protocol by its framing", () => {
    expect(
      speaksProtocol(
        "grpc",
        response({ headers: { "content-type": "application/grpc", "grpc-status": "12" } }),
      ),
    ).toBe(true);
    expect(
      speaksProtocol("grpc", response({ status: 415, headers: { "content-type": "text/plain" } })),
    ).toBe(false);
    expect(
      speaksProtocol(
        "grpc-web",
        response({ headers: { "content-type": "application/grpc-web+proto" } }),
      ),
    ).toBe(true);
    expect(
      speaksProtocol(
        "connect-binary",
        response({ headers: { "content-type": "application/proto" } }),
      ),
    ).toBe(true);
    expect(
      speaksProtocol(
        "connect-json",
        response({
          status: 404,
          headers: { "content-type": "application/json" },
          body: Buffer.from('{"message":"Route not found"}'),
        }),
      ),
    ).toBe(false);
  });
});

describe("codeName", () => {
  it("spells codes the Connect way", () => {
    expect(codeName(3)).toBe("invalid_argument");
    expect(codeName(16)).toBe("unauthenticated");
    expect(codeName(99)).toBe("code 99");
  });
});
