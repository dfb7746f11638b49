export type {
  Catalogue,
  CatalogueEntry,
  CatalogueService,
  CatalogueSource,
} from "./catalogue.js";
export { CatalogueError, createCatalogue } from "./catalogue.js";
export type { BillingMode, PriceSheet, ProviderId } from "./catalogue-schema.js";
export { embeddedCatalogueSource, loadEmbeddedCatalogue } from "./embedded-catalogue.js";
export type { ListPricePlugin, ListPricePluginOptions } from "./list-price-plugin.js";
export {
  ACTUAL_COST_PLUGIN,
  createListPricePlugin,
  defaultUsageAssumptions,
} from "./list-price-plugin.js";
export type { UsageAssumptions } from "./projected-cost.js";
export type { AliasForm, ResourceTypeAlias, ResourceTypeDefinition } from "./resource-types.js";
export { resourceTypeDefinitions } from "./resource-types.js";
