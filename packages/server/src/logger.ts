import type { DestinationStream, Logger, LoggerOptions } from "pino";
import { pino } from "pino";
import pinoPretty from "pino-pretty";

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
 * Field paths whose values never reach a log line: credential fields at the top level, one
 * level down and inside what an error carries (an HTTP client's error holds the failed
 * request's headers), and credential headers of any logged request, response or error.
 */
export const redactedPaths: readonly string[] = [
  ...credentialFields.flatMap((name) => [name, `*.${name}`, `err.*.${name}`, `err.*.*.${name}`]),
  ...credentialHeaders.flatMap((name) => [
    `*.headers["${name}"]`,
    `*.*.headers["${name}"]`,
    `err.*.*.headers["${name}"]`,
  ]),
];

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
  const loggerOptions: LoggerOptions = {
    level: "info",
    ...given,
    redact: { paths: [...redactedPaths, ...extraPaths], censor: "[Redacted]" },
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
      : pino.destination({ fd: 2, sync: true }));
  return pino(loggerOptions, stream);
}
