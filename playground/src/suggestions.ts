import type { ResourceInput } from "./playground-state.js";

/** The resource form fields that take suggestions. */
export type SuggestedField = "provider" | "resourceType" | "sku" | "region";

/** Values offered per field; the datalists of the resource form. */
export type Suggestions = Readonly<Record<SuggestedField, readonly string[]>>;

// Common identifiers, offered as a starting point before the plugin has said anything. They are
// hints for typing, not claims: Supports decides.
const commonValues: Readonly<Record<string, Omit<Suggestions, "provider">>> = {
  aws: {
    resourceType: [
      "ec2",
      "ebs",
      "s3",
      "rds",
      "lambda",
      "aws_instance",
      "aws_ebs_volume",
      "aws:ec2/instance:Instance",
    ],
    sku: [
      "t3.micro",
      "t3.small",
      "t3.medium",
      "m5.large",
      "c5.xlarge",
      "r5.large",
      "gp3",
      "gp2",
      "io2",
      "db.t3.micro",
    ],
    region: ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-1"],
  },
  azure: {
    resourceType: ["vm", "azurerm_linux_virtual_machine", "azurerm_windows_virtual_machine"],
    sku: ["Standard_B1s", "Standard_B2s", "Standard_D2s_v5", "Standard_D4s_v5", "Standard_E2s_v5"],
    region: ["eastus", "westeurope", "northeurope", "westus2"],
  },
  gcp: {
    resourceType: ["compute", "google_compute_instance", "gcp:compute/instance:Instance"],
    sku: ["e2-micro", "e2-medium", "e2-standard-2", "n2-standard-2", "c2-standard-4"],
    region: ["us-central1", "us-east1", "europe-west1", "asia-east1"],
  },
};

/** Providers offered before the plugin has said anything. */
export const commonProviders: readonly string[] = Object.keys(commonValues);

/**
 * Suggestions for the form: what the plugin named in its Supports reasons first (`learned`),
 * then common identifiers for the chosen provider.
 */
export function suggestionsFor(resource: ResourceInput, learned: Suggestions): Suggestions {
  const common = commonValues[resource.provider.trim().toLowerCase()];
  const merge = (a: readonly string[], b: readonly string[] = []) => [...new Set([...a, ...b])];
  return {
    provider: merge(learned.provider, commonProviders),
    resourceType: merge(learned.resourceType, common?.resourceType),
    sku: merge(learned.sku, common?.sku),
    region: merge(learned.region, common?.region),
  };
}

/** No learned values yet. */
export const noSuggestions: Suggestions = { provider: [], resourceType: [], sku: [], region: [] };

// A list runs to the end of its sentence: a ";", a newline, or a "." not inside an identifier.
// The noun is optional ("nearest known: ..."), then the sentence's subject names the field.
const listPattern = /\bknown(?: ([a-z][a-z _-]*?))?\s*(?:are|is)?\s*:\s*((?:[^;\n.]|\.(?=\S))+)/gi;
// A parenthesised list of what a plugin holds: `(stored: AmazonEC2, AmazonS3)` (the billing-data
// plugin's wording), `(stored regions: us-east-1, eu-west-1)`.
const storedPattern = /\(stored(?: ([a-z][a-z _-]*?))?\s*:\s*([^()]*)\)/gi;

/**
 * Values a Supports reason names as known, by field: a reason such as `region "mars-1" is not in
 * the catalogue for aws/ec2; known regions: us-east-1, eu-west-1` yields those two regions, and
 * `instance type "t9.huge" is not in the catalogue ...; nearest known: t3.large, t3.xlarge` two
 * SKUs; `no billing data for resource type "ec2" of provider "aws" (stored: AmazonEC2)` one
 * resource type. Parenthesised remarks inside a list are dropped; lists the page cannot
 * attribute to a field, or that read as prose, are ignored.
 */
export function suggestionsFromReason(reason: string): Partial<Record<SuggestedField, string[]>> {
  const found: Partial<Record<SuggestedField, string[]>> = {};
  const subject = reason.split(/["'`]/, 1)[0] ?? "";
  const matches = [...reason.matchAll(listPattern), ...reason.matchAll(storedPattern)];
  for (const match of matches) {
    const noun = (match[1] ?? "").trim();
    const field = noun === "" ? fieldFromNoun(subject) : fieldFromNoun(noun);
    if (field === undefined) continue;
    const values = (match[2] ?? "")
      .replace(/\([^)]*\)?/g, "")
      .replace(/\s*(?:\.{2,}|…|and \d+ more).*$/i, "")
      .split(",")
      .map((value) => value.trim().replace(/^["'`]|["'`]$/g, ""))
      .filter((value) => value !== "");
    // A list with spaces inside its items is prose, not identifiers: offer none of it.
    if (values.some((value) => /\s/.test(value) || value.length > 64)) continue;
    if (values.length > 0) found[field] = [...(found[field] ?? []), ...values].slice(0, 50);
  }
  return found;
}

function fieldFromNoun(noun: string): SuggestedField | undefined {
  const text = noun.toLowerCase();
  if (text.includes("region") || text.includes("location")) return "region";
  if (text.includes("provider")) return "provider";
  if (/^(?:resource )?types?$/.test(text) || text.includes("resource type")) return "resourceType";
  if (/sku|instance|size|machine|class|volume|tier/.test(text)) return "sku";
  return undefined;
}
