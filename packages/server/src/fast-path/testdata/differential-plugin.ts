import { ErrorCode } from "@costplugin/proto";
import { definePlugin, PluginError } from "@costplugin/sdk";

/**
 * A plugin whose GetProjectedCost behaviour is chosen by the request's `sku`, covering what a
 * response can carry: `boom` throws an unexpected error, `limited` and `missing` raise plugin
 * errors, `wait` blocks until the call's signal aborts (deadlines), `metadata` sets a response
 * header and trailer, `metadata-error` sets them and fails, `context` answers with what the
 * handler context says. GetPricingSpec answers a description of `sku` bytes' worth when `sku`
 * is a number (compressed responses). GetActualCost is left out (unimplemented).
 */
export function createDifferentialPlugin() {
  return definePlugin({
    name: "differential",
    supports: () => ({ supported: true }),
    getProjectedCost: async (request, context) => {
      const sku = request.resource?.sku ?? "";
      const answer = { unitPrice: 0.0104, currency: "USD", costPerMonth: 7.592, billingDetail: sku };
      switch (sku) {
        case "boom":
          throw new Error("upstream refused the request");
        case "limited":
          throw new PluginError(ErrorCode.RATE_LIMITED, "vendor rate limit", {
            retryAfterSeconds: 7,
          });
        case "missing":
          throw new PluginError(ErrorCode.RESOURCE_NOT_FOUND, "no such instance type", {
            details: { sku },
          });
        case "wait":
          await new Promise<void>((_, reject) => {
            context.signal.addEventListener("abort", () => reject(context.signal.reason), {
              once: true,
            });
          });
          return answer;
        case "metadata":
          context.responseHeader.set("x-price-source", "catalogue");
          context.responseTrailer.set("x-price-age", "3");
          return answer;
        case "metadata-error":
          context.responseHeader.set("x-price-source", "catalogue");
          context.responseTrailer.set("x-price-age", "3");
          throw new PluginError(ErrorCode.SERVICE_UNAVAILABLE, "catalogue unreachable");
        case "context":
          return {
            ...answer,
            billingDetail: JSON.stringify({
              protocol: context.protocolName,
              requestMethod: context.requestMethod,
              url: context.url,
              service: context.service.typeName,
              method: context.method.name,
              timeout: context.timeoutMs() === undefined ? "none" : "set",
              aborted: context.signal.aborted,
              echo: context.requestHeader.get("x-echo"),
              contentType: context.responseHeader.get("content-type"),
              trailer: [...context.responseTrailer.keys()].join(","),
            }),
          };
        default:
          return answer;
      }
    },
    getPricingSpec: (request) => {
      const size = Number(request.resource?.sku ?? "0");
      return {
        spec: {
          provider: request.resource?.provider ?? "",
          billingMode: "per_hour",
          ratePerUnit: 0.0104,
          currency: "USD",
          description: "price ".repeat(Math.ceil(size / 6)).slice(0, size),
        },
      };
    },
  });
}
