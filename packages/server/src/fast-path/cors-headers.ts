import { fastifyCorsOptionsFromCors } from "../cors.js";
import type { CorsOptions } from "../server-options.js";

/** Computes the CORS headers of one (non-preflight) request from its `Origin` header. */
export type CorsHeaders = (origin: string | undefined, into: Record<string, string>) => void;

/**
 * The CORS headers the server's `@fastify/cors` registration adds to an actual (non-preflight)
 * request, computed from the same options (`fastifyCorsOptionsFromCors`): `Vary: Origin` when
 * the allowed origins are a list or pattern, `Access-Control-Allow-Origin` for an allowed origin
 * (or `*`), and `Access-Control-Expose-Headers` on every response. Preflights (OPTIONS) never
 * reach the fast path. `cors: false` adds nothing.
 */
export function createCorsHeaders(cors: CorsOptions | false | undefined): CorsHeaders {
  if (cors === false) return () => {};
  const options = fastifyCorsOptionsFromCors(cors);
  const exposed = Array.isArray(options.exposedHeaders)
    ? options.exposedHeaders.join(", ")
    : String(options.exposedHeaders ?? "");
  const origin = options.origin;
  if (origin === "*" || (Array.isArray(origin) && origin.includes("*"))) {
    return (_origin, into) => {
      into["access-control-allow-origin"] = "*";
      into["access-control-expose-headers"] = exposed;
    };
  }
  const allowed = (value: string | undefined): boolean => {
    if (origin instanceof RegExp) {
      origin.lastIndex = 0;
      return origin.test(String(value));
    }
    if (Array.isArray(origin)) return origin.some((o) => typeof o === "string" && o === value);
    return false;
  };
  return (requestOrigin, into) => {
    into.vary = "Origin";
    if (allowed(requestOrigin)) into["access-control-allow-origin"] = requestOrigin as string;
    into["access-control-expose-headers"] = exposed;
  };
}
