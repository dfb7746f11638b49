import { describe, expect, it } from "vitest";
import { emptyResource } from "../src/playground-state.js";
import { noSuggestions, suggestionsFor, suggestionsFromReason } from "../src/suggestions.js";

describe("suggestionsFromReason", () => {
  it("reads the known regions a reason lists", () => {
    expect(
      suggestionsFromReason(
        'region "mars-1" is not in the catalogue for aws/ec2; known regions: us-east-1, eu-west-1, ap-southeast-1',
      ),
    ).toEqual({ region: ["us-east-1", "eu-west-1", "ap-southeast-1"] });
  });

  it("attributes several lists to their fields", () => {
    expect(
      suggestionsFromReason(
        "unknown provider; known providers: aws, azure, gcp. known resource types: ec2, ebs",
      ),
    ).toEqual({ provider: ["aws", "azure", "gcp"], resourceType: ["ec2", "ebs"] });
  });

  it("stops at an ellipsis that shortens a long list", () => {
    expect(
      suggestionsFromReason("known instance types: t3.micro, t3.small, … and 40 more"),
    ).toEqual({
      sku: ["t3.micro", "t3.small"],
    });
  });

  it("reads the reference plugin's phrasings, dropping parenthesised remarks", () => {
    expect(
      suggestionsFromReason(
        'provider "aliyun" is not in the catalogue; known providers: aws (also amazon, amazon-web-services), azure (also microsoft), gcp (also google)',
      ),
    ).toEqual({ provider: ["aws", "azure", "gcp"] });
    expect(
      suggestionsFromReason(
        'resource type "dynamo" is not in the catalogue for aws; known types: ec2, ebs, s3 (also as Terraform types, Pulumi tokens and CloudFormation types)',
      ),
    ).toEqual({ resourceType: ["ec2", "ebs", "s3"] });
  });

  it("attributes a 'nearest known' list to the field the sentence is about", () => {
    expect(
      suggestionsFromReason(
        'instance type "t9.huge" is not in the catalogue for aws/ec2 in us-east-1 (43 listed); nearest known: t3.large, t3.xlarge',
      ),
    ).toEqual({ sku: ["t3.large", "t3.xlarge"] });
  });

  it("reads the billing-data plugin's parenthesised lists of what it stores", () => {
    expect(
      suggestionsFromReason(
        'no billing data for resource type "ec2" of provider "aws" (stored: AmazonEC2, AmazonS3, AWSLambda)',
      ),
    ).toEqual({ resourceType: ["AmazonEC2", "AmazonS3", "AWSLambda"] });
    expect(
      suggestionsFromReason(
        'no billing data for "ComputeEngine" in region "mars-1" (stored regions: us-central1, europe-west4)',
      ),
    ).toEqual({ region: ["us-central1", "europe-west4"] });
  });

  it("gives nothing for a reason without a list", () => {
    expect(suggestionsFromReason("this plugin prices nothing on Tuesdays")).toEqual({});
  });

  it("ignores values with spaces, which are prose rather than identifiers", () => {
    expect(suggestionsFromReason("known regions: all of them, really")).toEqual({});
  });
});

describe("suggestionsFor", () => {
  it("puts what the plugin named before the common values", () => {
    const offered = suggestionsFor(
      { ...emptyResource, provider: "aws" },
      { ...noSuggestions, region: ["me-central-1"] },
    );
    expect(offered.region[0]).toBe("me-central-1");
    expect(offered.region).toContain("us-east-1");
    expect(offered.provider).toEqual(["aws", "azure", "gcp"]);
  });

  it("offers no SKUs or regions for an unknown provider until the plugin names some", () => {
    const offered = suggestionsFor({ ...emptyResource, provider: "k8s" }, noSuggestions);
    expect(offered.sku).toEqual([]);
    expect(offered.region).toEqual([]);
  });
});
