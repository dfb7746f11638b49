import { create, fromBinary, toBinary, toJson } from "@bufbuild/protobuf";
import { CostSourceService, ErrorCode, GetProjectedCostRequestSchema } from "@costplugin/proto";
import { describe, expect, it } from "vitest";

describe("costplugin.v1 generated code", () => {
  it("round-trips a request through the binary codec", () => {
    const req = create(GetProjectedCostRequestSchema, {
      resource: {
        provider: "aws",
        resourceType: "ec2",
        sku: "t3.micro",
        region: "us-east-1",
        tags: { a: "b" },
      },
    });
    const back = fromBinary(
      GetProjectedCostRequestSchema,
      toBinary(GetProjectedCostRequestSchema, req),
    );
    expect(back.resource?.sku).toBe("t3.micro");
    expect(back.resource?.tags).toEqual({ a: "b" });
  });

  it("renders JSON with the proto field names' lowerCamel form and enum names", () => {
    const req = create(GetProjectedCostRequestSchema, { resource: { resourceType: "ec2" } });
    expect(toJson(GetProjectedCostRequestSchema, req)).toEqual({
      resource: { resourceType: "ec2" },
    });
    expect(ErrorCode[ErrorCode.PLUGIN_NOT_CONFIGURED]).toBe("PLUGIN_NOT_CONFIGURED");
  });

  it("marks every CostSourceService method side-effect free so Connect GET works", () => {
    for (const m of CostSourceService.methods) expect(m.idempotency).toBe(1);
  });
});
