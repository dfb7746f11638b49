import { describe, expect, it } from "vitest";
import { ConformanceOptionsError } from "./conformance-options-error.js";
import {
  actualCostFixtureFromString,
  labelFromResourceFixture,
  resourceFixtureFromString,
} from "./fixtures.js";

describe("resourceFixtureFromString", () => {
  it("reads provider, type, sku and region", () => {
    expect(resourceFixtureFromString("aws/ec2/t3.micro/us-east-1")).toEqual({
      provider: "aws",
      resourceType: "ec2",
      sku: "t3.micro",
      region: "us-east-1",
      tags: {},
    });
  });

  it("reads tags from a query suffix", () => {
    expect(resourceFixtureFromString("aws/ebs/gp3/us-east-1?size_gb=100&iops=3000").tags).toEqual({
      size_gb: "100",
      iops: "3000",
    });
  });

  it("leaves sku and region empty when they are not given", () => {
    expect(resourceFixtureFromString("aws/s3")).toMatchObject({ sku: "", region: "" });
  });

  it("keeps slashes of a resource type when all four parts are given", () => {
    expect(
      resourceFixtureFromString("aws/aws:ec2/instance:Instance/t3.micro/us-east-1"),
    ).toMatchObject({
      provider: "aws",
      resourceType: "aws:ec2/instance:Instance",
      sku: "t3.micro",
      region: "us-east-1",
    });
  });

  it.each(["aws", "/ec2/t3.micro", "aws//t3.micro", ""])("refuses %j", (value) => {
    expect(() => resourceFixtureFromString(value)).toThrow(ConformanceOptionsError);
  });
});

describe("labelFromResourceFixture", () => {
  it("joins the four parts with slashes", () => {
    expect(
      labelFromResourceFixture(resourceFixtureFromString("aws/ec2/t3.micro/us-east-1?a=b")),
    ).toBe("aws/ec2/t3.micro/us-east-1");
  });
});

describe("actualCostFixtureFromString", () => {
  it("reads an ISO 8601 interval", () => {
    const fixture = actualCostFixtureFromString("i-1", "2025-01-01T00:00:00Z/2025-01-04T00:00:00Z");
    expect(fixture.start.toISOString()).toBe("2025-01-01T00:00:00.000Z");
    expect(fixture.end.toISOString()).toBe("2025-01-04T00:00:00.000Z");
  });

  it("defaults to the three whole UTC days before today", () => {
    const fixture = actualCostFixtureFromString("i-1", undefined, new Date("2025-03-10T15:30:00Z"));
    expect(fixture.start.toISOString()).toBe("2025-03-07T00:00:00.000Z");
    expect(fixture.end.toISOString()).toBe("2025-03-10T00:00:00.000Z");
  });

  it.each(["2025-01-01", "not-a-date/2025-01-02", "2025-01-01/2025-01-02/2025-01-03"])(
    "refuses the range %j",
    (range) => {
      expect(() => actualCostFixtureFromString("i-1", range)).toThrow(ConformanceOptionsError);
    },
  );

  it("refuses an empty resource id", () => {
    expect(() => actualCostFixtureFromString(" ", undefined)).toThrow(ConformanceOptionsError);
  });
});
