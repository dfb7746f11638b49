// One replica of the API's scheduler, run as its own process so a test can kill it outright
// (SIGKILL: no shutdown, no cleanup). Arguments: database URL, base URL of the model stand-in.
import { createApiServices } from "../api-services.js";

const [databaseUrl, modelBaseUrl] = process.argv.slice(2);
if (!databaseUrl || !modelBaseUrl) throw new Error("usage: pgboss-replica <database-url> <model-url>");

const services = await createApiServices(
  {
    databaseUrl,
    auth: { secret: "replica-secret-0123456789abcdefghij" },
    scheduler: "pg-boss",
    providers: { openai: { apiKey: "sk-replica", baseUrl: modelBaseUrl, models: ["stand-in"] } },
    retry: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 1 },
    jobPollingIntervalSeconds: 0.5,
    jobExpireSeconds: 2,
    jobMaintenanceIntervalSeconds: 1,
  },
  { onError: (error) => process.stderr.write(`${String(error)}\n`) },
);
await services.start();
process.stdout.write("READY\n");
