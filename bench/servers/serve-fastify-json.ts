// A plain Fastify JSON route doing the same work without an RPC layer: the HTTP/1.1 ceiling.
import { create, fromJson, toJson } from "@bufbuild/protobuf";
import { createListPricePlugin } from "@costplugin/plugin-list-price";
import { GetProjectedCostRequestSchema, GetProjectedCostResponseSchema } from "@costplugin/proto";
import Fastify from "fastify";

const plugin = createListPricePlugin();
const app = Fastify({ logger: false });
app.post("/costplugin.v1.CostSourceService/GetProjectedCost", async (request) => {
  const req = fromJson(GetProjectedCostRequestSchema, request.body as never);
  const init = await plugin.getProjectedCost?.(req, undefined as never);
  return toJson(GetProjectedCostResponseSchema, create(GetProjectedCostResponseSchema, init));
});
await app.listen({ port: 0, host: "127.0.0.1" });
const address = app.server.address();
process.stdout.write(`PORT=${typeof address === "object" && address ? address.port : 0}\n`);
process.once("SIGTERM", () => void app.close().then(() => process.exit(0)));
