import { Code } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { supportsFromCoverage } from "./coverage-supports.js";
import { createObservability } from "./observability.js";
import type { CostSourcePlugin, PluginCoverage } from "./plugin.js";
import { definePlugin } from "./plugin.js";
import { rejectionOf } from "./test-helpers.js";
import { createTestClient } from "./testing.js";

const coverage: PluginCoverage = {
  providers: ["aws"],
  resourceTypes: ["ec2", "ebs"],
  regions: ["us-east-1", "eu-west-1"],
};

function clientFor(plugin: CostSourcePlugin) {
  return createTestClient(plugin, {
    observability: createObservability({ defaultMetrics: false }),
  });
}

describe("supportsFromCoverage", () => {
  const plugin = definePlugin({ name: "covered", coverage });

  it("answers supported for a covered provider, type and region, saying so", async () => {
    const response = await clientFor(plugin).costSource.supports({
      resource: { provider: "aws", resourceType: "ec2", region: "us-east-1" },
    });
    expect(response.supported).toBe(true);
    expect(response.reason).toBe("aws/ec2 in us-east-1 is covered");
  });

  it("compares case-insensitively", async () => {
    const response = await clientFor(plugin).costSource.supports({
      resource: { provider: "AWS", resourceType: "EBS", region: "EU-West-1" },
    });
    expect(response.supported).toBe(true);
  });

  it("names the covered providers when the provider is not covered", async () => {
    const response = await clientFor(plugin).costSource.supports({
      resource: { provider: "gcp", resourceType: "ec2" },
    });
    expect(response).toMatchObject({
      supported: false,
      reason: 'provider "gcp" is not covered; covered: aws',
    });
  });

  it("names the covered resource types when the type is not covered", async () => {
    const response = await clientFor(plugin).costSource.supports({
      resource: { provider: "aws", resourceType: "rds" },
    });
    expect(response).toMatchObject({
      supported: false,
      reason: 'resource type "rds" is not covered; covered: ec2, ebs',
    });
  });

  it("names the covered regions when the region is not covered", async () => {
    const response = await clientFor(plugin).costSource.supports({
      resource: { provider: "aws", resourceType: "ec2", region: "mars-1" },
    });
    expect(response).toMatchObject({
      supported: false,
      reason: 'region "mars-1" is not covered for aws/ec2; covered: us-east-1, eu-west-1',
    });
  });

  it("does not constrain a resource without a region", () => {
    const response = supportsFromCoverage(coverage, {
      $typeName: "costplugin.v1.ResourceDescriptor",
      provider: "aws",
      resourceType: "ebs",
      sku: "",
      region: "",
      tags: {},
    });
    expect(response).toEqual({ supported: true, reason: "aws/ebs is covered" });
  });

  it("covers every region when the declaration lists none", async () => {
    const everywhere = definePlugin({
      name: "global",
      coverage: { providers: ["aws"], resourceTypes: ["s3"] },
    });
    const response = await clientFor(everywhere).costSource.supports({
      resource: { provider: "aws", resourceType: "s3", region: "ap-south-2" },
    });
    expect(response.supported).toBe(true);
  });

  it("prefers the plugin's own supports over its coverage", async () => {
    const own = definePlugin({
      name: "own",
      coverage,
      supports: () => ({ supported: false, reason: "decided by the plugin" }),
    });
    const response = await clientFor(own).costSource.supports({
      resource: { provider: "aws", resourceType: "ec2" },
    });
    expect(response.reason).toBe("decided by the plugin");
  });

  it("still validates the resource before answering from coverage", async () => {
    const error = await rejectionOf(
      clientFor(plugin).costSource.supports({ resource: { provider: "aws", resourceType: "" } }),
    );
    expect(error.code).toBe(Code.InvalidArgument);
  });
});
