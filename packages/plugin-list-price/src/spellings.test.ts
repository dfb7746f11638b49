import { describe, expect, it } from "vitest";
import { regionSpellings, skuSpellings } from "./spellings.js";

describe("regionSpellings", () => {
  it("reads an AWS availability zone as its region", () => {
    expect(regionSpellings("aws", "US-EAST-1A")).toEqual(["us-east-1a", "us-east-1"]);
  });

  it("reads a Compute Engine zone as its region", () => {
    expect(regionSpellings("gcp", "europe-west1-b")).toContain("europe-west1");
  });

  it("folds an Azure display name to the programmatic name", () => {
    expect(regionSpellings("azure", "West US 2")).toContain("westus2");
  });

  it("leaves a plain region as the only spelling", () => {
    expect(regionSpellings("aws", "eu-west-1")).toEqual(["eu-west-1"]);
  });
});

describe("skuSpellings", () => {
  it("adds the db. prefix to RDS classes written without it", () => {
    expect(skuSpellings("rds", "m5.large")).toEqual(["m5.large", "db.m5.large"]);
  });

  it("adds the Standard_ prefix and underscores to Azure sizes", () => {
    expect(skuSpellings("vm", "D2s v5")).toContain("Standard_D2s_v5");
  });

  it("takes the last segment of a Compute Engine machine type URL", () => {
    expect(
      skuSpellings("compute", "projects/p/zones/us-central1-a/machineTypes/e2-micro"),
    ).toContain("e2-micro");
  });

  it("maps Lambda architecture synonyms and Terraform list syntax", () => {
    expect(skuSpellings("lambda", "amd64")).toContain("x86_64");
    expect(skuSpellings("lambda", '["arm64"]')).toContain("arm64");
    expect(skuSpellings("lambda", "constructor")).toEqual(["constructor"]);
  });

  it("reads magnetic as the EBS standard volume type", () => {
    expect(skuSpellings("ebs", "Magnetic")).toContain("standard");
  });
});
