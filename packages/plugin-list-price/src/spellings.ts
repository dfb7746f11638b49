import type { ProviderId } from "./catalogue-schema.js";

const awsZone = /^([a-z]{2}(?:-gov)?-[a-z]+-\d+)[a-z]$/;
const gcpZone = /^([a-z]+-[a-z]+\d+)-[a-z]$/;

/**
 * Region spellings to try for a caller's region, most literal first: the region itself, then
 * the region of an availability zone (`us-east-1a`, `us-central1-b`) and, for Azure, the
 * display name folded to the programmatic name (`West US 2` → `westus2`).
 */
export function regionSpellings(provider: ProviderId, input: string): string[] {
  const region = input.trim().toLowerCase();
  const spellings = [region];
  if (provider === "aws") spellings.push(region.replace(awsZone, "$1"));
  if (provider === "gcp") spellings.push(region.replace(gcpZone, "$1"));
  if (provider === "azure") spellings.push(region.replace(/[\s_-]+/g, ""));
  return unique(spellings);
}

const lambdaArchitectures: ReadonlyMap<string, string> = new Map([
  ["x86", "x86_64"],
  ["x86-64", "x86_64"],
  ["amd64", "x86_64"],
  ["arm", "arm64"],
  ["aarch64", "arm64"],
  ["graviton", "arm64"],
]);

/**
 * SKU spellings to try for a caller's SKU of a canonical resource type, most literal first:
 * `t3.micro` for RDS also as `db.t3.micro`, `D2s_v5` or `d2s v5` for Azure as
 * `Standard_D2s_v5`, a Compute Engine machine type URL as its last segment, `amd64` for Lambda
 * as `x86_64`, `magnetic` for EBS as `standard`. Case is ignored by the catalogue.
 */
export function skuSpellings(resourceType: string, input: string): string[] {
  const sku = input.trim();
  const spellings = [sku];
  const lower = sku.toLowerCase();
  switch (resourceType) {
    case "rds":
      if (!lower.startsWith("db.")) spellings.push(`db.${sku}`);
      break;
    case "vm": {
      const underscored = sku.replace(/[\s-]+/g, "_");
      spellings.push(
        lower.startsWith("standard_") ? underscored : `Standard_${underscored}`,
        underscored,
      );
      break;
    }
    case "compute":
      spellings.push(sku.slice(sku.lastIndexOf("/") + 1));
      break;
    case "lambda": {
      const bare = lower.replace(/[[\]"'\s]/g, "");
      spellings.push(bare, lambdaArchitectures.get(bare) ?? bare);
      break;
    }
    case "ebs":
      if (lower === "magnetic") spellings.push("standard");
      break;
    case "s3":
      spellings.push(sku.replace(/[\s-]+/g, "_"));
      break;
  }
  return unique(spellings);
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
