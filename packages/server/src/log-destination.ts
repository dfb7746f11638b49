import type { DestinationStream } from "pino";
import { pino } from "pino";

/** Options of `createLogDestination`. */
export interface LogDestinationOptions {
  /** Lines are written once this many bytes are pending. Default 4096. */
  readonly batchBytes?: number;
  /** A line waits at most this long before it is written. Default 100 ms. */
  readonly flushIntervalMs?: number;
}

/** A log stream that batches lines; `flushSync` writes what is pending at once. */
export interface LogDestination extends DestinationStream {
  write(line: string): void;
  /** Writes every pending line before returning. */
  flushSync(): void;
  /** What pino's `logger.flush(cb)` calls: writes every pending line, then calls back. */
  flush(callback?: (error?: Error) => void): void;
}

/** Destinations with pending lines, written out when the process exits. */
const pendingAtExit = new Set<() => void>();
let exitHookInstalled = false;

function flushAllAtExit(): void {
  for (const flush of pendingAtExit) flush();
}

/**
 * Where the server writes JSON log lines by default (file descriptor 2, stderr), exported so
 * tools can send the same kind of stream elsewhere. Lines are collected and written together,
 * synchronously, once `batchBytes` (4 KiB) are pending or `flushIntervalMs` (100 ms) after the
 * first of them, whichever comes first; a line longer than the batch goes out at once. Writing
 * goes through pino's own destination (sonic-boom, which retries interrupted and partial
 * writes), synchronously: with the server on one CPU, an asynchronous hand-off to libuv's
 * thread pool costs more than the write itself. One system call per ~14 request lines instead
 * of one per line is most of what a request line costs to write. Pending lines are written when
 * the process exits (also through `process.exit()` and after an uncaught exception), so only a
 * process killed outright (SIGKILL, out of memory) can lose its last 100 ms of lines.
 */
export function createLogDestination(
  fd: number,
  options: LogDestinationOptions = {},
): LogDestination {
  const batchBytes = options.batchBytes ?? 4096;
  const flushIntervalMs = options.flushIntervalMs ?? 100;
  if (!(Number.isInteger(batchBytes) && batchBytes > 0)) {
    throw new RangeError(`batchBytes must be a positive integer, got ${String(batchBytes)}`);
  }
  if (!(Number.isFinite(flushIntervalMs) && flushIntervalMs > 0)) {
    throw new RangeError(`flushIntervalMs must be positive, got ${String(flushIntervalMs)}`);
  }
  const target = pino.destination({ fd, sync: true });
  let lines: string[] = [];
  let pendingBytes = 0;
  let timer: NodeJS.Timeout | undefined;

  const flushSync = () => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    pendingAtExit.delete(flushSync);
    if (lines.length === 0) return;
    const text = lines.length === 1 ? (lines[0] as string) : lines.join("");
    lines = [];
    pendingBytes = 0;
    target.write(text);
  };

  return {
    write(line) {
      lines.push(line);
      // UTF-16 length: equal to the byte length for the ASCII of JSON lines, never far off.
      pendingBytes += line.length;
      if (pendingBytes >= batchBytes) {
        flushSync();
        return;
      }
      if (timer === undefined) {
        timer = setTimeout(flushSync, flushIntervalMs);
        timer.unref();
        if (!exitHookInstalled) {
          exitHookInstalled = true;
          process.on("exit", flushAllAtExit);
        }
        pendingAtExit.add(flushSync);
      }
    },
    flushSync,
    flush(callback) {
      flushSync();
      callback?.();
    },
  };
}
