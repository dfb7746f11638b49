// @grpc/grpc-js serving the same GetProjectedCost with the same plugin and protobuf-es codecs.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { createListPricePlugin } from "@costplugin/plugin-list-price";
import {
  type GetProjectedCostRequest,
  GetProjectedCostRequestSchema,
  GetProjectedCostResponseSchema,
} from "@costplugin/proto";
import * as grpc from "@grpc/grpc-js";

const plugin = createListPricePlugin();
const server = new grpc.Server();
server.addService(
  {
    GetProjectedCost: {
      path: "/costplugin.v1.CostSourceService/GetProjectedCost",
      requestStream: false,
      responseStream: false,
      requestDeserialize: (b: Buffer) => fromBinary(GetProjectedCostRequestSchema, b),
      requestSerialize: (m: GetProjectedCostRequest) =>
        Buffer.from(toBinary(GetProjectedCostRequestSchema, m)),
      responseSerialize: (
        m: Parameters<typeof toBinary<typeof GetProjectedCostResponseSchema>>[1],
      ) => Buffer.from(toBinary(GetProjectedCostResponseSchema, m)),
      responseDeserialize: (b: Buffer) => fromBinary(GetProjectedCostResponseSchema, b),
    },
  },
  {
    GetProjectedCost: (
      call: grpc.ServerUnaryCall<GetProjectedCostRequest, unknown>,
      callback: grpc.sendUnaryData<unknown>,
    ) => {
      Promise.resolve(plugin.getProjectedCost?.(call.request, undefined as never))
        .then((init) => callback(null, create(GetProjectedCostResponseSchema, init)))
        .catch((err: Error) => callback({ code: grpc.status.INTERNAL, message: err.message }));
    },
  },
);
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) throw err;
  process.stdout.write(`PORT=${port}\n`);
});
process.once("SIGTERM", () => server.tryShutdown(() => process.exit(0)));
