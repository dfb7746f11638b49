/** The wire protocol of an RPC, as used in the `protocol` metric label. */
export type RpcProtocol = "grpc" | "grpc-web" | "connect";

/**
 * The protocol of a request from its content-type: `application/grpc-web*` is gRPC-web,
 * other `application/grpc*` is gRPC, anything else (Connect unary and streaming, and Connect GET,
 * which has no content-type) is Connect.
 */
export function protocolFromContentType(contentType: string | null): RpcProtocol {
  if (contentType === null) return "connect";
  // What clients send, tested as it is: no string is built on every call.
  if (contentType.startsWith("application/grpc-web")) return "grpc-web";
  if (contentType.startsWith("application/grpc")) return "grpc";
  if (contentType.startsWith("application/json") || contentType.startsWith("application/proto")) {
    return "connect";
  }
  const value = contentType.trim().toLowerCase();
  if (value.startsWith("application/grpc-web")) return "grpc-web";
  if (value.startsWith("application/grpc")) return "grpc";
  return "connect";
}
