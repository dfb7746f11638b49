import type { ProtocolProbe } from "./conformance-check.js";
import type { ConformanceProtocol } from "./protocols.js";
import { sendRawRequest } from "./raw-request.js";
import { rawRpcOutcome, rawRpcRequest, speaksProtocol } from "./wire-format.js";

/** Options of `probeProtocols`. */
export interface ProbeOptions {
  readonly baseUrl: string;
  readonly protocols: readonly ConformanceProtocol[];
  readonly httpVersion: "1.1" | "2";
  readonly timeoutMs: number;
}

/**
 * Sends one raw Name request per protocol and decides from the answer's framing (content type,
 * grpc-status, Connect error body) whether the plugin speaks it. A plugin whose Name is broken
 * still "speaks" the protocol: the checks then report the broken Name. Probes run one after
 * the other so a plugin that chokes on a foreign protocol cannot disturb the next probe.
 */
export async function probeProtocols(options: ProbeOptions): Promise<ProtocolProbe[]> {
  const probes: ProtocolProbe[] = [];
  for (const protocol of options.protocols) {
    try {
      const response = await sendRawRequest(
        rawRpcRequest(protocol, {
          baseUrl: options.baseUrl,
          path: "/costplugin.v1.CostSourceService/Name",
          httpVersion: options.httpVersion,
          timeoutMs: options.timeoutMs,
        }),
      );
      const outcome = rawRpcOutcome(protocol, response);
      probes.push(
        speaksProtocol(protocol, response)
          ? { protocol, available: true, detail: outcome.summary }
          : { protocol, available: false, detail: `not a ${protocol} answer: ${outcome.summary}` },
      );
    } catch (error) {
      // Node's HTTP/1.1 parser meets HTTP/2 frames: the server only speaks HTTP/2 (grpc-go,
      // grpc-js), which is how a gRPC-only plugin answers a browser protocol.
      const notHttp1 = (error as { code?: unknown }).code === "HPE_INVALID_CONSTANT";
      probes.push({
        protocol,
        available: false,
        detail: notHttp1
          ? `no ${protocol} answer: the server does not speak HTTP/1.1 (an HTTP/2-only gRPC server?)`
          : `no ${protocol} answer: ${(error as Error).message}`,
      });
    }
  }
  return probes;
}
