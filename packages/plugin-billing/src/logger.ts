import type { Redactor } from "./redactor.js";

/** A structured logger; also satisfies the SDK's `PluginLogger`. */
export interface BillingLogger {
  /** Logs an event worth seeing in normal operation. */
  info(fields: object, msg?: string): void;
  /** Logs something the operator should act on. */
  warn(fields: object, msg?: string): void;
  /** Logs a failure. */
  error(fields: object, msg?: string): void;
}

/** Options of `createLogger`. */
export interface LoggerOptions {
  /** Receives each finished line (with its trailing newline). */
  readonly write: (line: string) => void;
  /** Applied to every line before it is written. */
  readonly redact: Redactor;
  /** `json`: one JSON object per line (for collectors); `text`: `level message key=value`. Default json. */
  readonly format?: "json" | "text";
  /** The clock stamped on JSON lines. Default `Date.now`. */
  readonly now?: () => number;
}

/** A logger that never writes a secret: every line goes through the redactor. */
export function createLogger(options: LoggerOptions): BillingLogger {
  const now = options.now ?? Date.now;
  const emit = (level: string, fields: object, msg?: string) => {
    const plain = serialize(fields);
    let line: string;
    if (options.format === "text") {
      const extra = Object.entries(plain)
        .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
        .join(" ");
      line = `${level}: ${msg ?? ""}${extra === "" ? "" : ` (${extra})`}`;
    } else {
      line = JSON.stringify({ level, time: new Date(now()).toISOString(), msg, ...plain });
    }
    options.write(`${options.redact(line)}\n`);
  };
  return {
    info: (fields, msg) => emit("info", fields, msg),
    warn: (fields, msg) => emit("warn", fields, msg),
    error: (fields, msg) => emit("error", fields, msg),
  };
}

function serialize(fields: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    out[key] = value instanceof Error ? { name: value.name, message: value.message } : value;
  }
  return out;
}
