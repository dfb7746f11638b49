import type { DestinationStream, Logger, LoggerOptions } from "pino";
import { pino } from "pino";
import pinoPretty from "pino-pretty";
import { createLogDestination } from "./log-destination.js";

/** Options of `createServerLogger`. */
export interface ServerLoggerOptions {
  /** Pino options; `redact` and `serializers` given here are merged with the server's own. */
  readonly options: LoggerOptions;
  /** Where lines go. Default: stderr, pretty-printed when stderr is a terminal. */
  readonly stream?: DestinationStream;
  /** Whether the default stream is a terminal (decided once, at the edge). */
  readonly prettyWhenNoStream?: boolean;
}

/** Field names that hold credentials, wherever they appear. */
const credentialFields = [
  "authorization",
  "cookie",
  "password",
  "token",
  "accessToken",
  "access_token",
  "refreshToken",
  "refresh_token",
  "apiKey",
  "api_key",
  "secret",
  "clientSecret",
  "client_secret",
  "credentials",
  "key",
];

/** Header names that hold credentials (Node lower-cases incoming header names). */
const credentialHeaders = [
  "authorization",
  "cookie",
  "set-cookie",
  "proxy-authorization",
  "x-api-key",
];

/**
 * Field paths whose values pino's own redaction removes: credential fields at the top level and
 * inside what an error carries (an HTTP client's error holds the failed request's headers), up
 * to two levels down. Every path starts with a literal key, so a line without that key pays
 * nothing for it; one level down under any other key is `redactNestedCredentials`' job (a
 * wildcard first segment would make pino run its redactor over every value of every line,
 * which costs more than the rest of a request).
 */
export const redactedPaths: readonly string[] = [
  ...credentialFields.flatMap((name) => [name, `err.${name}`, `err.*.${name}`, `err.*.*.${name}`]),
  ...credentialHeaders.flatMap((name) => [
    `err.headers["${name}"]`,
    `err.*.headers["${name}"]`,
    `err.*.*.headers["${name}"]`,
  ]),
];

/** What a redacted value is replaced with. */
const censor = "[Redacted]";
const credentialFieldSet: ReadonlySet<string> = new Set(credentialFields);
const credentialHeaderSet: ReadonlySet<string> = new Set([
  ...credentialFields,
  ...credentialHeaders,
]);
/** Top-level keys pino serializes and redacts itself (`redactedPaths`, the req serializer). */
const serializedKeys: ReadonlySet<string> = new Set(["err", "req", "res"]);

type Fields = Record<string, unknown>;

function isObject(value: unknown): value is Fields {
  return value !== null && typeof value === "object";
}

/** A shallow copy keeping the prototype (so an Error stays an Error). */
function copyOf(value: Fields): Fields {
  return Array.isArray(value)
    ? ([...value] as unknown as Fields)
    : Object.assign(Object.create(Object.getPrototypeOf(value) as object | null) as Fields, value);
}

/** `headers` with credential header values censored; the same object when none is there. */
function redactHeaders(headers: Fields): Fields {
  let copy: Fields | undefined;
  for (const name of Object.keys(headers)) {
    if (credentialHeaderSet.has(name.toLowerCase())) {
      copy ??= copyOf(headers);
      copy[name] = censor;
    }
  }
  return copy ?? headers;
}

/** One logged value with credential fields, its `headers` and its children's `headers` censored. */
function redactValue(value: Fields): Fields {
  let copy: Fields | undefined;
  for (const key of Object.keys(value)) {
    const child = value[key];
    let replaced: unknown = child;
    if (credentialFieldSet.has(key)) {
      replaced = censor;
    } else if (isObject(child)) {
      if (key === "headers") {
        replaced = redactHeaders(child);
      } else if (isObject(child.headers)) {
        const headers = redactHeaders(child.headers);
        if (headers !== child.headers) replaced = Object.assign(copyOf(child), { headers });
      }
    }
    if (replaced !== child) {
      copy ??= copyOf(value);
      copy[key] = replaced;
    }
  }
  return copy ?? value;
}

/**
 * The log object with credentials one level down under any key censored: fields named like
 * credentials (`{ upstream: { token } }`), credential headers in a top-level `headers` object,
 * in a `headers` object one level down (`{ upstream: { headers: { authorization } } }`) and one
 * level deeper
 * (`{ upstream: { request: { headers } } }`). Copies only what it changes (the caller's objects
 * are never modified) and returns the object itself when nothing needs redaction, so a line of
 * plain fields costs a loop over its keys. `err`, `req` and `res` are left to pino.
 */
export function redactNestedCredentials(fields: Fields): Fields {
  let copy: Fields | undefined;
  for (const key in fields) {
    const value = fields[key];
    if (!isObject(value) || serializedKeys.has(key)) continue;
    const redacted = key === "headers" ? redactHeaders(value) : redactValue(value);
    if (redacted !== value) {
      copy ??= { ...fields };
      copy[key] = redacted;
    }
  }
  return copy ?? fields;
}

/** Query parameters whose values are never logged (credentials, and Connect GET payloads). */
const sensitiveQueryParameter =
  /token|auth|key|secret|password|credential|session|signature|^message$/i;

/** A URL fit for a log line: sensitive query values replaced, long values shortened. */
export function urlForLog(url: string): string {
  const query = url.indexOf("?");
  if (query === -1) return url;
  const params = new URLSearchParams(url.slice(query + 1));
  const shown = [...params].map(([name, value]) => {
    const safe = sensitiveQueryParameter.test(name)
      ? "[Redacted]"
      : value.length > 64
        ? `${value.slice(0, 64)}...`
        : value;
    return `${encodeURIComponent(name)}=${encodeURIComponent(safe)}`;
  });
  return `${url.slice(0, query)}?${shown.join("&")}`;
}

/** The server's pino logger: JSON lines on stderr, or pretty lines on a terminal; secrets redacted. */
export function createServerLogger(options: ServerLoggerOptions): Logger {
  const given = options.options;
  const extraPaths = Array.isArray(given.redact) ? given.redact : (given.redact?.paths ?? []);
  const givenLog = given.formatters?.log;
  const givenBindings = given.formatters?.bindings;
  const loggerOptions: LoggerOptions = {
    level: "info",
    ...given,
    redact: { paths: [...redactedPaths, ...extraPaths], censor },
    formatters: {
      ...given.formatters,
      log: (fields) => redactNestedCredentials(givenLog ? givenLog(fields) : fields),
      bindings: (bindings) =>
        redactNestedCredentials((givenBindings ? givenBindings(bindings) : bindings) as Fields),
    },
    serializers: {
      req: (req: { method?: string; url?: string; headers?: Record<string, unknown> }) => ({
        method: req.method,
        url: urlForLog(req.url ?? ""),
      }),
      ...given.serializers,
    },
  };
  const stream =
    options.stream ??
    (options.prettyWhenNoStream
      ? pinoPretty({ destination: 2, sync: true, translateTime: "SYS:HH:MM:ss.l" })
      : createLogDestination(2));
  const logger = pino(loggerOptions, stream);
  // Pino applies `formatters.bindings` to the root's bindings only; children (every request's
  // logger among them) get theirs redacted here. Children inherit this method.
  const child = logger.child;
  logger.child = function redactedChild(this: Logger, bindings, childOptions) {
    return child.call(this, redactNestedCredentials(bindings), childOptions);
  } as Logger["child"];
  return logger;
}
