import type { ChildProcess } from "node:child_process";
import { spawn } from "node:child_process";
import { once } from "node:events";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendRawRequest } from "./raw-request.js";

const earlyAnswerScript = fileURLToPath(
  new URL("./testdata/early-answer-server.mjs", import.meta.url),
);

// The refusing server runs in its own process: its close then races the client's writes, which
// fail (EPIPE or ECONNRESET) while the answer already sits in the client's receive buffer.
let early: ChildProcess;
let earlyUrl: string;
// A server that reads every body whole, in this process.
let reader: http.Server;
let readerUrl: string;

beforeAll(async () => {
  early = spawn(process.execPath, [earlyAnswerScript], { stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: early.stdout as NodeJS.ReadableStream });
  const [line] = (await once(lines, "line")) as [string];
  earlyUrl = `http://127.0.0.1:${line.replace("PORT=", "")}`;

  reader = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      response.writeHead(200, { "content-type": "text/plain" });
      response.end(`read ${Buffer.concat(chunks).byteLength} bytes`);
    });
  });
  reader.listen(0, "127.0.0.1");
  await once(reader, "listening");
  readerUrl = `http://127.0.0.1:${(reader.address() as AddressInfo).port}`;
});

afterAll(async () => {
  if (early.exitCode === null) {
    early.kill("SIGTERM");
    await once(early, "exit");
  }
  reader.closeAllConnections();
  await new Promise((resolve) => reader.close(resolve));
});

const body = new Uint8Array(5 * 1024 * 1024).fill(0x61);
const post = (baseUrl: string) =>
  sendRawRequest({
    baseUrl,
    path: "/costplugin.v1.CostSourceService/Supports",
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
    httpVersion: "1.1",
    timeoutMs: 20_000,
  });

describe("sendRawRequest", () => {
  it("reads the early answer of a server that refuses an oversized HTTP/1.1 body and closes at once", async () => {
    // The server's reset may erase its answer before any client reads it (curl loses some too),
    // so an attempt may fail, but only as a reset; Node's own client loses nearly every answer.
    const outcomes: string[] = [];
    for (let attempt = 0; attempt < 8; attempt++) {
      try {
        const response = await post(earlyUrl);
        expect(response.body.toString("utf8")).toContain("resource_exhausted");
        outcomes.push(String(response.status));
      } catch (error) {
        outcomes.push((error as NodeJS.ErrnoException).code ?? String(error));
      }
    }
    expect(outcomes.every((outcome) => ["429", "EPIPE", "ECONNRESET"].includes(outcome))).toBe(
      true,
    );
    expect(outcomes.filter((outcome) => outcome === "429").length).toBeGreaterThanOrEqual(1);
  });

  it("sends a whole HTTP/1.1 body to a server that reads it", async () => {
    const response = await post(readerUrl);
    expect(response.status).toBe(200);
    expect(response.body.toString("utf8")).toBe(`read ${body.byteLength} bytes`);
  });

  it("rejects when nothing listens at the address", async () => {
    const closed = http.createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    await expect(
      sendRawRequest({
        baseUrl: url,
        path: "/",
        method: "GET",
        headers: {},
        httpVersion: "1.1",
        timeoutMs: 5000,
      }),
    ).rejects.toThrow(/ECONNREFUSED/);
  });
});
