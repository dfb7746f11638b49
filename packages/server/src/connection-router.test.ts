import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http2Preface } from "./http2-preface.js";
import type { RunningServer } from "./start-server.js";
import { startServer } from "./start-server.js";
import { connectRaw, countStatusLines } from "./testdata/raw-socket.js";
import { createTestPlugin } from "./testdata/test-plugin.js";

const nameRequest =
  "POST /costplugin.v1.CostSourceService/Name HTTP/1.1\r\nHost: test\r\n" +
  "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";
const emptySettingsFrame = Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]);

/** A complete HTTP/1.1 response with a body of `Content-Length` bytes. */
function completeResponses(count: number) {
  return (bytes: Buffer) =>
    countStatusLines(bytes) >= count && bytes.toString("latin1").trimEnd().endsWith("}");
}

describe("createConnectionRouter", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      plugin: createTestPlugin().plugin,
      logger: false,
      timeouts: { headersMs: 300, requestMs: 300 },
    });
  });
  afterAll(() => server.close());

  /** The server still answers a fresh request. */
  async function stillServing() {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
  }

  it("answers pipelined HTTP/1.1 requests in order on one connection", async () => {
    const connection = await connectRaw(server.port);
    connection.socket.write(nameRequest + nameRequest + nameRequest);
    const received = await connection.waitFor(completeResponses(3));
    expect(countStatusLines(received)).toBe(3);
    expect(received.toString().match(/"name":"test-plugin"/g)).toHaveLength(3);
    connection.socket.destroy();
  });

  it("answers an HTTP/1.1 request whose first bytes arrive one at a time", async () => {
    const connection = await connectRaw(server.port);
    await connection.writeInPieces("P", "O", "S", nameRequest.slice(3));
    const received = await connection.waitFor(completeResponses(1));
    expect(received.toString()).toContain('"name":"test-plugin"');
    connection.socket.destroy();
  });

  it("routes a connection whose HTTP/2 preface is split across writes to HTTP/2", async () => {
    const connection = await connectRaw(server.port);
    await connection.writeInPieces(
      http2Preface.subarray(0, 3),
      http2Preface.subarray(3, 16),
      Buffer.concat([http2Preface.subarray(16), emptySettingsFrame]),
    );
    // The server's first frame is its SETTINGS frame: type 0x4 at byte 3, stream 0.
    const received = await connection.waitFor((bytes) => bytes.length >= 9);
    expect(received[3]).toBe(0x04);
    expect(received.readUInt32BE(5)).toBe(0);
    connection.socket.destroy();
  });

  it("answers a request from a client that half-closed its side after sending", async () => {
    const connection = await connectRaw(server.port);
    connection.socket.end(nameRequest);
    const received = await connection.closed;
    expect(countStatusLines(received)).toBe(1);
    expect(received.toString()).toContain('"name":"test-plugin"');
  });

  it("closes a connection that sends nothing within the header timeout", async () => {
    const connection = await connectRaw(server.port);
    const received = await connection.closed;
    expect(received.length).toBe(0);
    await stillServing();
  });

  it("closes a connection that stops in the middle of the preface", async () => {
    const connection = await connectRaw(server.port);
    connection.socket.end(http2Preface.subarray(0, 10));
    await connection.closed;
    await stillServing();
  });

  it("answers an HTTP/1.1 request head that never completes with 408 after the header timeout", async () => {
    const connection = await connectRaw(server.port);
    connection.socket.write("GET /healthz HTTP/1.1\r\nHost: test\r\n");
    const received = await connection.closed;
    expect(received.toString()).toMatch(/^HTTP\/1\.1 408 /);
    await stillServing();
  });

  it("answers an HTTP/1.1 body that stops arriving with 408 after the request timeout", async () => {
    const connection = await connectRaw(server.port);
    connection.socket.write(
      "POST /costplugin.v1.CostSourceService/Name HTTP/1.1\r\nHost: test\r\n" +
        "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
    );
    const received = await connection.closed;
    expect(received.toString()).toMatch(/^HTTP\/1\.1 408 /);
    await stillServing();
  });

  it("answers an announced oversized body at once and closes the connection", async () => {
    const connection = await connectRaw(server.port);
    connection.socket.write(
      "POST /costplugin.v1.CostSourceService/Name HTTP/1.1\r\nHost: test\r\n" +
        `Content-Type: application/json\r\nContent-Length: ${8 * 1024 * 1024}\r\n\r\n{"a":"`,
    );
    const received = await connection.closed;
    expect(received.toString()).toMatch(/^HTTP\/1\.1 429 /);
    expect(received.toString()).toMatch(/\r\nconnection: close\r\n/i);
    expect(received.toString()).toContain('"code":"resource_exhausted"');
    await stillServing();
  });

  it("answers garbage bytes with 400 and closes the connection", async () => {
    const connection = await connectRaw(server.port);
    connection.socket.write(
      Buffer.from([0x16, 0x03, 0x01, 0x00, 0xff, 0x00, 0x0d, 0x0a, 0x0d, 0x0a]),
    );
    const received = await connection.closed;
    expect(received.toString()).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    await stillServing();
  });

  it("answers oversized request headers with 431", async () => {
    const connection = await connectRaw(server.port);
    connection.socket.write(
      `GET /healthz HTTP/1.1\r\nHost: test\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
    );
    const received = await connection.closed;
    expect(received.toString()).toMatch(/^HTTP\/1\.1 431 /);
    await stillServing();
  });

  it("closes an HTTP/2 connection that sends garbage frames after the preface", async () => {
    const connection = await connectRaw(server.port);
    connection.socket.write(Buffer.concat([http2Preface, Buffer.alloc(64, 0xee)]));
    await connection.closed;
    await stillServing();
  });
});
