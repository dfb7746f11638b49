import { describe, expect, it } from "vitest";
import { protocolFromContentType } from "./rpc-protocol.js";

describe("protocolFromContentType", () => {
  it.each([
    ["application/grpc", "grpc"],
    ["application/grpc+proto", "grpc"],
    ["application/grpc-web", "grpc-web"],
    ["application/grpc-web+proto", "grpc-web"],
    ["application/grpc-web-text", "grpc-web"],
    ["Application/GRPC-Web+json", "grpc-web"],
    ["application/json", "connect"],
    ["application/proto", "connect"],
    ["application/connect+proto", "connect"],
    [null, "connect"],
  ])("labels %s as %s", (contentType, protocol) => {
    expect(protocolFromContentType(contentType)).toBe(protocol);
  });
});
