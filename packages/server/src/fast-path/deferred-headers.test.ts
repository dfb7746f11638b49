import { describe, expect, it } from "vitest";
import { NodeRequestHeaders, ResponseHeaders } from "./deferred-headers.js";

const source = {
  ":method": "POST",
  ":path": "/costplugin.v1.CostSourceService/Name",
  "content-type": "application/grpc",
  "x-padded": "  spaced  ",
  "x-list": ["one", "two"],
  "user-agent": "grpc-node-js/1.12.6",
};

describe("NodeRequestHeaders", () => {
  it("answers get and has of plain names like Headers", () => {
    const headers = new NodeRequestHeaders(source);
    expect(headers.get("content-type")).toBe("application/grpc");
    expect(headers.get("Content-Type")).toBe("application/grpc");
    expect(headers.get("x-missing")).toBeNull();
    expect(headers.has("user-agent")).toBe(true);
    expect(headers.has("x-missing")).toBe(false);
    expect(headers.loaded).toBe(false);
  });

  it("trims values and joins lists as Headers does", () => {
    const headers = new NodeRequestHeaders(source);
    expect(headers.get("x-padded")).toBe("spaced");
    expect(headers.get("x-list")).toBe("one, two");
  });

  it("lists the same entries as connect-node's conversion, without pseudo-headers", () => {
    const expected = new Headers();
    expected.append("content-type", "application/grpc");
    expected.append("x-padded", "spaced");
    expected.append("x-list", "one");
    expected.append("x-list", "two");
    expected.append("user-agent", "grpc-node-js/1.12.6");
    expect([...new NodeRequestHeaders(source)]).toEqual([...expected]);
    expect([...new Headers(new NodeRequestHeaders(source))]).toEqual([...expected]);
  });

  it("rejects invalid names as Headers does", () => {
    expect(() => new NodeRequestHeaders(source).get(":path")).toThrow(TypeError);
  });

  it("takes changes after being filled", () => {
    const headers = new NodeRequestHeaders(source);
    headers.set("content-type", "application/grpc+proto");
    headers.delete("user-agent");
    expect(headers.get("content-type")).toBe("application/grpc+proto");
    expect(headers.has("user-agent")).toBe(false);
    expect(headers).toBeInstanceOf(Headers);
  });
});

describe("ResponseHeaders", () => {
  it("starts with its defaults without filling anything", () => {
    const headers = new ResponseHeaders([["grpc-status", "0"]]);
    expect(headers.loaded).toBe(false);
    expect(headers.defaults).toEqual([["grpc-status", "0"]]);
  });

  it("behaves as Headers holding the defaults once used", () => {
    const headers = new ResponseHeaders([["content-type", "application/proto"]]);
    expect(headers.get("content-type")).toBe("application/proto");
    headers.set("x-price-source", "catalogue");
    expect(headers.loaded).toBe(true);
    expect([...headers]).toEqual([
      ["content-type", "application/proto"],
      ["x-price-source", "catalogue"],
    ]);
  });
});
