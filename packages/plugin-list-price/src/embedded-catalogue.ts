import ebs from "./catalogue/aws-ebs.json" with { type: "json" };
import ec2 from "./catalogue/aws-ec2.json" with { type: "json" };
import lambda from "./catalogue/aws-lambda.json" with { type: "json" };
import rds from "./catalogue/aws-rds.json" with { type: "json" };
import s3 from "./catalogue/aws-s3.json" with { type: "json" };
import azureVm from "./catalogue/azure-vm.json" with { type: "json" };
import gcpCompute from "./catalogue/gcp-compute.json" with { type: "json" };
import manifest from "./catalogue/manifest.json" with { type: "json" };
import type { Catalogue, CatalogueSource } from "./catalogue.js";
import { createCatalogue } from "./catalogue.js";

/** The catalogue files shipped with the plugin, not yet validated. */
export const embeddedCatalogueSource: CatalogueSource = {
  manifest,
  sheets: [ec2, ebs, s3, rds, lambda, azureVm, gcpCompute],
};

let loaded: Catalogue | undefined;

/**
 * The catalogue shipped with the plugin, validated on first use and shared afterwards.
 * Throws `CatalogueError` if a shipped file is malformed, so a bad edit fails at start-up.
 */
export function loadEmbeddedCatalogue(): Catalogue {
  loaded ??= createCatalogue(embeddedCatalogueSource);
  return loaded;
}
