import { fail, notApplicable, pass } from "../check-result.js";
import type { PluginCheck } from "../conformance-check.js";

/** `transport.reachable`: at least one selected protocol answers. */
export const reachableCheck: PluginCheck = {
  id: "transport.reachable",
  level: "basic",
  scope: "plugin",
  description: "The plugin answers at least one of the selected protocols at the given address.",
  async run(context) {
    const spoken = context.probes.filter((probe) => probe.available);
    if (spoken.length > 0) {
      return pass(`speaks ${spoken.map((probe) => probe.protocol).join(", ")}`);
    }
    return fail(
      `an answer in one of ${context.probes.map((probe) => probe.protocol).join(", ")}`,
      context.probes.map((probe) => `${probe.protocol}: ${probe.detail}`).join("; "),
    );
  },
};

/** `transport.grpc`: gRPC over HTTP/2 cleartext works, the protocol every host uses. */
export const grpcServedCheck: PluginCheck = {
  id: "transport.grpc",
  level: "basic",
  scope: "plugin",
  description:
    "The plugin speaks gRPC (HTTP/2), the protocol hosts use to call plugins; gRPC-web and Connect are optional.",
  async run(context) {
    const probe = context.probes.find((candidate) => candidate.protocol === "grpc");
    if (probe === undefined) return notApplicable("gRPC is not among the selected protocols");
    if (probe.available) return pass();
    return fail("a gRPC answer over HTTP/2", probe.detail);
  },
};
