import { createHash } from "node:crypto";

/**
 * The id of the run of `taskId` for the tick at `tick`: the same on every replica and after a
 * restart, so the job queue and the responses table can refuse a second run of one tick. A
 * UUID (version 8, RFC 9562) built from a SHA-256 of the pair.
 */
export function scheduledRunId(taskId: string, tick: string): string {
  const hex = createHash("sha256").update(`${taskId}\u0000${tick}`).digest("hex");
  const variant = ((Number.parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
