import { cors as connectCors } from "@connectrpc/connect";
import type { FastifyCorsOptions } from "@fastify/cors";
import type { CorsOptions } from "./server-options.js";

/** Origins on this machine: `http(s)://localhost`, `127.x.x.x` or `[::1]`, any port. */
export const loopbackOrigin = /^https?:\/\/(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/;

/** Request headers browsers may send: Connect's and gRPC-web's, credentials and tracing. */
export const corsAllowedHeaders: readonly string[] = [
  ...connectCors.allowedHeaders,
  "Authorization",
  "X-Request-Id",
  "Traceparent",
  "Tracestate",
];

/**
 * Response headers browsers may read: gRPC status and details, encodings, the request id, and
 * the REST API's paging, location and rate-limit headers.
 */
export const corsExposedHeaders: readonly string[] = [
  ...connectCors.exposedHeaders,
  "Grpc-Status",
  "Grpc-Message",
  "Grpc-Status-Details-Bin",
  "X-Request-Id",
  "Traceparent",
  "Link",
  "Location",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "Retry-After",
].filter(
  (name, index, all) => all.findIndex((n) => n.toLowerCase() === name.toLowerCase()) === index,
);

/** Browsers cache a preflight this long (seconds); 2 h is the most Chromium honours. */
const preflightMaxAgeSeconds = 7200;

/**
 * The `@fastify/cors` options of a `CorsOptions`: allowed origins (default loopback only),
 * GET and POST, the Connect/gRPC-web headers plus `Authorization`, and the gRPC status headers
 * exposed so browsers can read errors. No cookies: `credentials` stays off.
 */
export function fastifyCorsOptionsFromCors(cors: CorsOptions | undefined): FastifyCorsOptions {
  const allowed = cors?.allowedOrigins;
  return {
    origin: allowed === "*" ? "*" : allowed === undefined ? loopbackOrigin : [...allowed],
    methods: [...connectCors.allowedMethods],
    allowedHeaders: [...corsAllowedHeaders],
    exposedHeaders: [...corsExposedHeaders],
    maxAge: preflightMaxAgeSeconds,
    credentials: false,
  };
}
