import type { HealthCheckResponse_Status } from "@costplugin/proto";
import {
  HealthCheckResponse_Status as CostPluginStatus,
  CostSourceService,
  ObservabilityService,
} from "@costplugin/proto";
import { Health, HealthCheckResponse_ServingStatus } from "@costplugin/proto/grpc-health";
import type { HealthSnapshot } from "./health-monitor.js";

/**
 * Service names a health check may ask about: "" (the whole plugin), both costplugin.v1
 * services and grpc.health.v1.Health itself. All report the plugin's health probe.
 */
export const healthCheckedServices: ReadonlySet<string> = new Set([
  "",
  CostSourceService.typeName,
  ObservabilityService.typeName,
  Health.typeName,
]);

/** The costplugin.v1 HealthCheckResponse status of a snapshot. */
export function costPluginStatusFromSnapshot(snapshot: HealthSnapshot): HealthCheckResponse_Status {
  return snapshot.status === "serving" ? CostPluginStatus.SERVING : CostPluginStatus.NOT_SERVING;
}

/** The grpc.health.v1 serving status of a snapshot. */
export function grpcHealthStatusFromSnapshot(
  snapshot: HealthSnapshot,
): HealthCheckResponse_ServingStatus {
  return snapshot.status === "serving"
    ? HealthCheckResponse_ServingStatus.SERVING
    : HealthCheckResponse_ServingStatus.NOT_SERVING;
}

/** A service name safe to repeat in a message: at most 200 characters, quoted. */
export function quotedServiceName(name: string): string {
  return JSON.stringify(name.length > 200 ? `${name.slice(0, 200)}...` : name);
}
