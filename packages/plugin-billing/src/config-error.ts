import { ErrorCode } from "@costplugin/proto";

/**
 * A configuration or credential problem found before any work starts. The message is meant for
 * the operator and never contains a secret value; `code` says which protocol ErrorCode it maps to.
 */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  /** The protocol ErrorCode of the problem (a configuration category code). */
  readonly code: ErrorCode;

  constructor(message: string, code: ErrorCode = ErrorCode.PLUGIN_NOT_CONFIGURED) {
    super(message);
    this.code = code;
  }
}
