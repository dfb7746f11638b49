import { setTimeout as sleep } from "node:timers/promises";
import type { ServiceImpl } from "@connectrpc/connect";
import { Code } from "@connectrpc/connect";
import { type Health, HealthCheckResponse_ServingStatus } from "@costplugin/proto/grpc-health";
import { connectErrorWithDetail } from "./error-detail.js";
import {
  grpcHealthStatusFromSnapshot,
  healthCheckedServices,
  quotedServiceName,
} from "./health-services.js";
import type { Observability } from "./observability.js";

/** Options of `createGrpcHealthService`. */
export interface GrpcHealthServiceOptions {
  /** Whose health probe answers. */
  readonly observability: Observability;
  /** How often Watch runs the probe, in milliseconds. */
  readonly watchIntervalMs: number;
}

/**
 * The standard grpc.health.v1.Health service, answering from the same probe as the
 * costplugin.v1 HealthCheck. Check answers not_found for an unknown service, as the gRPC health
 * protocol says. Watch sends the current status at once, then every change it sees polling the
 * probe each `watchIntervalMs`, until the caller leaves; for an unknown service it sends
 * SERVICE_UNKNOWN once and stays open (the protocol's rule for services that may appear later).
 */
export function createGrpcHealthService(
  options: GrpcHealthServiceOptions,
): ServiceImpl<typeof Health> {
  const { observability, watchIntervalMs } = options;
  return {
    async check(request) {
      if (!healthCheckedServices.has(request.service)) {
        throw connectErrorWithDetail({
          connectCode: Code.NotFound,
          message: `unknown service ${quotedServiceName(request.service)}`,
        });
      }
      return { status: grpcHealthStatusFromSnapshot(await observability.health()) };
    },
    async *watch(request, context) {
      const { signal } = context;
      if (!healthCheckedServices.has(request.service)) {
        yield { status: HealthCheckResponse_ServingStatus.SERVICE_UNKNOWN };
        await aborted(signal);
        return;
      }
      let last = grpcHealthStatusFromSnapshot(await observability.health());
      yield { status: last };
      while (!signal.aborted) {
        try {
          await sleep(watchIntervalMs, undefined, { signal });
        } catch {
          return;
        }
        const status = grpcHealthStatusFromSnapshot(await observability.health());
        if (status !== last) {
          last = status;
          yield { status };
        }
      }
    },
  };
}

function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) =>
    signal.addEventListener("abort", () => resolve(), { once: true }),
  );
}
