import type { ClientProtocol } from "@costplugin/client";
import type { CallRecord } from "./plugin-session.js";
import { methodPath } from "./plugin-session.js";

/** Where `buf curl` finds the .proto files, relative to the repository root. */
export const protoSchemaDir = "proto";

/** Quotes a string for a POSIX shell: single quotes, with embedded ones closed and escaped. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/**
 * The same call as a `curl` command speaking Connect with JSON (whatever protocol the page
 * uses, since JSON is what a person can read and edit).
 */
export function curlCommand(record: CallRecord): string {
  return [
    "curl -sS -X POST",
    `  -H ${shellQuote("Content-Type: application/json")}`,
    `  -H ${shellQuote("Connect-Protocol-Version: 1")}`,
    `  --data ${shellQuote(JSON.stringify(record.request))}`,
    `  ${shellQuote(`${record.baseUrl}${methodPath(record.method)}`)}`,
  ].join(" \\\n");
}

const bufProtocols: Readonly<Record<ClientProtocol, string>> = {
  "connect-json": "connect",
  "connect-binary": "connect",
  "grpc-web": "grpcweb",
};

/**
 * The same call as a `buf curl` command in the page's protocol, reading the schema from the
 * repository's proto directory (plugins do not offer reflection).
 */
export function bufCurlCommand(record: CallRecord): string {
  return [
    `buf curl --schema ${protoSchemaDir}`,
    `  --protocol ${bufProtocols[record.protocol]}`,
    `  --data ${shellQuote(JSON.stringify(record.request))}`,
    `  ${shellQuote(`${record.baseUrl}${methodPath(record.method)}`)}`,
  ].join(" \\\n");
}
