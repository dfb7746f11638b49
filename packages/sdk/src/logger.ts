/**
 * The minimal logger the SDK needs; pino and Fastify's logger satisfy it. Errors are passed as
 * `{ err }` so pino's standard serializer records their type, message and stack.
 */
export interface PluginLogger {
  error(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
}

/**
 * The logger used when none is given: one JSON line per entry on stderr (stdout is reserved for
 * the host contract's `PORT=<n>` line). Errors keep their type, message and stack.
 */
export const stderrLogger: PluginLogger = {
  error: (obj, msg) => writeLine("error", obj, msg),
  warn: (obj, msg) => writeLine("warn", obj, msg),
  info: (obj, msg) => writeLine("info", obj, msg),
};

function writeLine(level: string, obj: object, msg: string | undefined): void {
  const entry = { level, time: new Date().toISOString(), msg, ...serializeErrors(obj) };
  process.stderr.write(`${JSON.stringify(entry)}\n`);
}

function serializeErrors(obj: object): object {
  const err = (obj as { err?: unknown }).err;
  if (!(err instanceof Error)) return obj;
  return { ...obj, err: { type: err.name, message: err.message, stack: err.stack } };
}
