import { describe, expect, it } from "vitest";
import { http2Preface, prefaceVerdictFromBytes } from "./http2-preface.js";

describe("prefaceVerdictFromBytes", () => {
  it("recognises the complete HTTP/2 preface", () => {
    expect(prefaceVerdictFromBytes(http2Preface)).toBe("http2");
  });

  it("recognises the preface followed by frames", () => {
    expect(prefaceVerdictFromBytes(Buffer.concat([http2Preface, Buffer.from([0, 0, 0, 4])]))).toBe(
      "http2",
    );
  });

  it("waits while the bytes are a proper prefix of the preface", () => {
    expect(prefaceVerdictFromBytes(http2Preface.subarray(0, 1))).toBe("undecided");
    expect(prefaceVerdictFromBytes(http2Preface.subarray(0, 23))).toBe("undecided");
  });

  it("decides HTTP/1.1 at the first byte that differs", () => {
    expect(prefaceVerdictFromBytes(Buffer.from("GET / HTTP/1.1\r\n"))).toBe("http1");
    expect(prefaceVerdictFromBytes(Buffer.from("PRI * HTTP/1.1"))).toBe("http1");
    expect(prefaceVerdictFromBytes(Buffer.from([0xff]))).toBe("http1");
  });
});
