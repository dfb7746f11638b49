export { listConformanceChecks } from "./check-catalog.js";
export type { CheckMeasurements, CheckResult, CheckStatus, CheckVerdict } from "./check-result.js";
export { splitCommandLine } from "./command-line.js";
export type { ConformanceCheckInfo, ProtocolProbe } from "./conformance-check.js";
export type { ConformanceCommandOptions } from "./conformance-command.js";
export { conformanceCommand } from "./conformance-command.js";
export type {
  ActualCostFixtureInput,
  ConformanceOptions,
  ConformancePerformanceOptions,
  ConformanceTimeouts,
} from "./conformance-options.js";
export { ConformanceOptionsError } from "./conformance-options-error.js";
export type { ConformanceReport, ConformanceSummary } from "./conformance-report.js";
export { failedCheckIds, summarizeResults } from "./conformance-report.js";
export type { ActualCostFixture, ConformanceFixtures, ResourceFixture } from "./fixtures.js";
export { actualCostFixtureFromString, resourceFixtureFromString } from "./fixtures.js";
export { fixturesFromDocument, loadFixturesFile } from "./fixtures-file.js";
export { formatJsonReport } from "./format-json.js";
export { formatJunitReport } from "./format-junit.js";
export type { TextReportOptions } from "./format-text.js";
export { formatTextReport } from "./format-text.js";
export type { ConformanceLevel } from "./levels.js";
export { conformanceLevels } from "./levels.js";
export type { ConformanceProtocol } from "./protocols.js";
export { conformanceProtocols } from "./protocols.js";
export { runConformance } from "./run-conformance.js";
