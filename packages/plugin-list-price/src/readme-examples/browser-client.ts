import { createCostPluginClient, errorDetailFromError } from "@costplugin/client";

const { costSource, observability } = createCostPluginClient({
  baseUrl: "http://127.0.0.1:8080",
  protocol: "grpc-web", // or "connect-json" (default), "connect-binary"
});
try {
  const cost = await costSource.getProjectedCost({
    resource: {
      provider: "gcp",
      resourceType: "google_compute_instance",
      sku: "e2-standard-2",
      region: "us-central1",
    },
  });
  console.log(cost.costPerMonth); // 48.91438
} catch (error) {
  const detail = errorDetailFromError(error); // code, category, message, retryAfterSeconds
  console.error(detail?.message);
}
const health = await observability.healthCheck({});
console.log(health.message); // catalogue 2025.01.0 (as of 2025-01-01): 312 prices
