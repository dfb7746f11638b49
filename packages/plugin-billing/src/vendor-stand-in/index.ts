export type { ConfigFileOptions } from "./config-file.js";
export { writeConfigFile } from "./config-file.js";
export type {
  CostDataset,
  CostDatasetOptions,
  DatasetResource,
  VendorCostRow,
} from "./cost-dataset.js";
export { createCostDataset, microsToDecimal } from "./cost-dataset.js";
export type { FaultRule, VendorFault } from "./fault.js";
export { fixtureRows, fixtureSource, loadPluginFixture } from "./plugin-fixture.js";
export type { TestPullerOptions } from "./test-setup.js";
export {
  createTestPuller,
  openMigratedStore,
  standInTokens,
  temporarySqlitePath,
} from "./test-setup.js";
export type { StandInRequest, VendorStandIn, VendorStandInOptions } from "./vendor-stand-in.js";
export { startVendorStandIn } from "./vendor-stand-in.js";
