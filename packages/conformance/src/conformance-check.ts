import type { CheckVerdict } from "./check-result.js";
import type { ResolvedConformanceOptions } from "./conformance-options.js";
import type { ConformanceLevel } from "./levels.js";
import type { PluginProcess } from "./plugin-process.js";
import type { ProtocolSession } from "./protocol-session.js";
import type { ConformanceProtocol } from "./protocols.js";

/** Whether a protocol is spoken by the plugin, as the first raw probe found. */
export interface ProtocolProbe {
  /** The protocol probed. */
  readonly protocol: ConformanceProtocol;
  /** True when the plugin answered the probe in that protocol. */
  readonly available: boolean;
  /** What the probe saw (the answer, or why the protocol is considered not spoken). */
  readonly detail: string;
}

/** The public description of a check: what the README table and the reports show. */
export interface ConformanceCheckInfo {
  /** Stable id, `<group>.<name>`. */
  readonly id: string;
  /** The lowest level that runs it. */
  readonly level: ConformanceLevel;
  /** What it asserts, in one sentence. */
  readonly description: string;
  /** `protocol`: one result per protocol; `plugin`: one result for the whole plugin. */
  readonly scope: "protocol" | "plugin";
  /** For protocol checks: the protocols it applies to (others are not applicable). Default all. */
  readonly protocols?: readonly ConformanceProtocol[];
}

/** What every check can see while it runs. */
export interface RunContext {
  /** The run's options. */
  readonly options: ResolvedConformanceOptions;
  /** Origin of the plugin under test. */
  readonly baseUrl: string;
  /** Sessions of the protocols the plugin speaks (selected and answered the probe). */
  readonly sessions: ReadonlyMap<ConformanceProtocol, ProtocolSession>;
  /** The probe of every selected protocol. */
  readonly probes: readonly ProtocolProbe[];
  /** The plugin process, when the kit started it (`exec`). */
  readonly plugin: PluginProcess | undefined;
}

/** A check run once per protocol the plugin speaks. */
export interface ProtocolCheck extends ConformanceCheckInfo {
  readonly scope: "protocol";
  run(session: ProtocolSession, context: RunContext): Promise<CheckVerdict>;
}

/** A check run once for the whole plugin. */
export interface PluginCheck extends ConformanceCheckInfo {
  readonly scope: "plugin";
  run(context: RunContext): Promise<CheckVerdict>;
}

/** A conformance check with its implementation. */
export type ConformanceCheck = ProtocolCheck | PluginCheck;
