/** Content types the RPC routes accept, grouped by protocol, for error messages and `Accept-Post`. */
export const acceptedRpcContentTypes = [
  "application/json",
  "application/proto",
  "application/grpc",
  "application/grpc+proto",
  "application/grpc+json",
  "application/grpc-web",
  "application/grpc-web+proto",
  "application/grpc-web+json",
] as const;

/** The message of a 415 answer: names what was sent and everything that is accepted. */
export function unsupportedMediaTypeMessage(contentType: string | undefined): string {
  const sent = contentType
    ? `content type "${truncate(contentType)}"`
    : "a request without content type";
  return (
    `${sent} is not accepted here; send Connect (application/json or application/proto), ` +
    `gRPC (application/grpc, +proto or +json) or gRPC-web (application/grpc-web, +proto or +json)`
  );
}

function truncate(value: string): string {
  return value.length > 100 ? `${value.slice(0, 100)}...` : value;
}
