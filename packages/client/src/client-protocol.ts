/**
 * The wire protocols a browser can speak to a plugin: Connect with JSON bodies (readable in the
 * network tab, the default), Connect with binary protobuf bodies (smaller and faster), and
 * gRPC-web (binary). gRPC itself needs HTTP/2 trailers, which browsers do not expose; it is
 * offered by the `@costplugin/client/node` entry.
 */
export type ClientProtocol = "connect-json" | "connect-binary" | "grpc-web";

/** Every `ClientProtocol`, in the order of the documentation. */
export const clientProtocols: readonly ClientProtocol[] = Object.freeze([
  "connect-json",
  "connect-binary",
  "grpc-web",
]);

/** Checks a protocol name given at run time (e.g. from a form or a query string). */
export function parseProtocol<P extends string>(
  value: string | undefined,
  allowed: readonly P[],
  fallback: P,
): P {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as P;
  throw new RangeError(
    `protocol must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`,
  );
}
