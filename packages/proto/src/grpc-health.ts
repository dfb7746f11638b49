// The standard grpc.health.v1 protocol, kept apart from costplugin.v1 because both name a
// message HealthCheckRequest.
export * from "./gen/grpc/health/v1/health_pb.js";
