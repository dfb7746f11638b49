import { create, toBinary, toJsonString } from "@bufbuild/protobuf";
import { GetProjectedCostRequestSchema } from "@costplugin/proto";

/** The request every benchmark sends: a GetProjectedCost for an EC2 instance. */
export const benchRequest = create(GetProjectedCostRequestSchema, {
  resource: {
    provider: "aws",
    resourceType: "ec2",
    sku: "t3.micro",
    region: "us-east-1",
    tags: { team: "payments", env: "prod" },
  },
});

/** The RPC path, the same for every protocol. */
export const benchPath = "/costplugin.v1.CostSourceService/GetProjectedCost";

const binary = toBinary(GetProjectedCostRequestSchema, benchRequest);

/** One gRPC / gRPC-web length-prefixed message frame. */
function frame(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + payload.length);
  new DataView(out.buffer).setUint32(1, payload.length);
  out.set(payload, 5);
  return out;
}

/** Request bodies and headers per protocol, ready to be sent by a load generator. */
export const benchBodies = {
  grpc: { body: frame(binary), headers: { "content-type": "application/grpc", te: "trailers" } },
  "grpc-web": {
    body: frame(binary),
    headers: { "content-type": "application/grpc-web+proto", "x-grpc-web": "1" },
  },
  "connect-binary": { body: binary, headers: { "content-type": "application/proto" } },
  "connect-json": {
    body: new TextEncoder().encode(toJsonString(GetProjectedCostRequestSchema, benchRequest)),
    headers: { "content-type": "application/json" },
  },
} as const;

/** Protocols measured. */
export type BenchProtocol = keyof typeof benchBodies;
