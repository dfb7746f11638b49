// A plain Fastify JSON route doing the same work without an RPC layer: the same plugin, SDK
// service implementation and metrics interceptor as the one-port server (see bench-service.ts),
// protobuf-es JSON in and out. The HTTP/1.1 ceiling the RPC protocols are compared with.
import { fromJson, toJson } from "@bufbuild/protobuf";
import { GetProjectedCostRequestSchema, GetProjectedCostResponseSchema } from "@costplugin/proto";
import Fastify from "fastify";
import { createBenchService } from "./bench-service.js";

const getProjectedCost = createBenchService();
const app = Fastify({ logger: false });
app.post("/costplugin.v1.CostSourceService/GetProjectedCost", async (request) => {
  const req = fromJson(GetProjectedCostRequestSchema, request.body as never);
  return toJson(GetProjectedCostResponseSchema, await getProjectedCost(req, "application/json"));
});
await app.listen({ port: 0, host: "127.0.0.1" });
const address = app.server.address();
process.stdout.write(`PORT=${typeof address === "object" && address ? address.port : 0}\n`);
process.once("SIGTERM", () => void app.close().then(() => process.exit(0)));
