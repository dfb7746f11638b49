// @grpc/grpc-js serving the same GetProjectedCost with the same plugin, SDK service implementation,
// metrics interceptor and protobuf-es codecs as the one-port server (see bench-service.ts).
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  type GetProjectedCostRequest,
  GetProjectedCostRequestSchema,
  type GetProjectedCostResponse,
  GetProjectedCostResponseSchema,
} from "@costplugin/proto";
import * as grpc from "@grpc/grpc-js";
import { createBenchService } from "./bench-service.js";

const getProjectedCost = createBenchService();
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
      responseSerialize: (m: GetProjectedCostResponse) =>
        Buffer.from(toBinary(GetProjectedCostResponseSchema, m)),
      responseDeserialize: (b: Buffer) => fromBinary(GetProjectedCostResponseSchema, b),
    },
  },
  {
    GetProjectedCost: (
      call: grpc.ServerUnaryCall<GetProjectedCostRequest, unknown>,
      callback: grpc.sendUnaryData<unknown>,
    ) => {
      getProjectedCost(call.request, "application/grpc")
        .then((response) => callback(null, response))
        .catch((err: Error) => callback({ code: grpc.status.INTERNAL, message: err.message }));
    },
  },
);
server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) throw err;
  process.stdout.write(`PORT=${port}\n`);
});
process.once("SIGTERM", () => server.tryShutdown(() => process.exit(0)));
