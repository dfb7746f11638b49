import { createContextKey } from "@connectrpc/connect";

/** The wire protocol of one call, in the names Connect uses. */
export type RpcProtocol = "connect" | "grpc" | "grpc-web";

/** What the server learned about one RPC, for its log line. Filled in while the call runs. */
export interface RpcRecord {
  /** Fully qualified service name, e.g. `costplugin.v1.CostSourceService`. */
  service: string;
  /** Method name, e.g. `GetProjectedCost`. */
  method: string;
  /** The protocol the client spoke. */
  protocol: RpcProtocol;
  /** The result code in Connect's spelling (`ok`, `invalid_argument`, ...); unset while running. */
  code: string | undefined;
  /** Whether the request body has been received completely (HTTP/1.1 needs to know). */
  readonly bodyComplete: () => boolean;
  /** The HTTP major version of the request. */
  readonly httpVersionMajor: number;
}

/** Where a call's `RpcRecord` travels in the Connect context values. */
export const rpcRecordKey = createContextKey<RpcRecord | undefined>(undefined, {
  description: "costplugin server rpc record",
});

/** The protocol a request speaks, from its method and content type. */
export function rpcProtocolFromRequest(method: string, contentType: string | null): RpcProtocol {
  if (method === "GET" || contentType === null) return "connect";
  const type = contentType.toLowerCase();
  if (type.startsWith("application/grpc-web")) return "grpc-web";
  if (type.startsWith("application/grpc")) return "grpc";
  return "connect";
}
