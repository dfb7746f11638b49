import fastifyCors from "@fastify/cors";
import { fastify } from "fastify";
import { describe, expect, it } from "vitest";
import { fastifyCorsOptionsFromCors } from "../cors.js";
import type { CorsOptions } from "../server-options.js";
import { createCorsHeaders } from "./cors-headers.js";

/** The CORS headers `@fastify/cors` adds to an actual POST, with the server's options. */
async function fromFastify(cors: CorsOptions | undefined, origin: string | undefined) {
  const app = fastify({ logger: false });
  await app.register(fastifyCors, fastifyCorsOptionsFromCors(cors));
  app.post("/rpc", async () => "ok");
  const response = await app.inject({
    method: "POST",
    url: "/rpc",
    headers: origin === undefined ? {} : { origin },
  });
  await app.close();
  const picked: Record<string, string> = {};
  for (const name of ["vary", "access-control-allow-origin", "access-control-expose-headers"]) {
    const value = response.headers[name];
    if (value !== undefined) picked[name] = String(value);
  }
  return picked;
}

const settings: Array<[string, CorsOptions | undefined]> = [
  ["the loopback default", undefined],
  ["a list of origins", { allowedOrigins: ["https://costs.example.com"] }],
  ["any origin", { allowedOrigins: "*" }],
];
const origins = [
  undefined,
  "http://localhost:5173",
  "https://costs.example.com",
  "https://elsewhere.example",
];

describe("createCorsHeaders", () => {
  for (const [name, cors] of settings) {
    it(`adds what @fastify/cors adds with ${name}`, async () => {
      const headers = createCorsHeaders(cors);
      for (const origin of origins) {
        const mine: Record<string, string> = {};
        headers(origin, mine);
        expect(mine).toEqual(await fromFastify(cors, origin));
      }
    });
  }

  it("adds nothing when CORS is off", () => {
    const mine: Record<string, string> = {};
    createCorsHeaders(false)("http://localhost:5173", mine);
    expect(mine).toEqual({});
  });
});
