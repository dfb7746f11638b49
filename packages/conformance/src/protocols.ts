/**
 * A wire protocol the kit speaks to a plugin: gRPC over HTTP/2, gRPC-web, and Connect with the
 * JSON or the binary (protobuf) codec.
 */
export type ConformanceProtocol = "grpc" | "grpc-web" | "connect-json" | "connect-binary";

/** Every protocol, in the order the kit checks them. */
export const conformanceProtocols: readonly ConformanceProtocol[] = [
  "grpc",
  "grpc-web",
  "connect-json",
  "connect-binary",
];

/** Whether `value` names a protocol. */
export function isConformanceProtocol(value: string): value is ConformanceProtocol {
  return (conformanceProtocols as readonly string[]).includes(value);
}
