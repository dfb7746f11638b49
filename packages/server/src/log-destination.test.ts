import { execFile } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLogDestination } from "./log-destination.js";

const run = promisify(execFile);
const script = fileURLToPath(new URL("./testdata/log-at-exit.ts", import.meta.url));
const line = (n: number) => `${JSON.stringify({ n, msg: "x".repeat(40) })}\n`;

describe("createLogDestination", () => {
  let dir: string;
  let file: string;
  let fd: number;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "costplugin-log-"));
    file = join(dir, "server.log");
    fd = openSync(file, "w");
  });
  afterEach(() => {
    vi.useRealTimers();
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  });
  const written = () => readFileSync(file, "utf8");

  it("holds lines back until a batch is full, then writes them in one piece", () => {
    const destination = createLogDestination(fd, { batchBytes: 200 });
    destination.write(line(1));
    destination.write(line(2));
    expect(written()).toBe("");
    destination.write(line(3));
    destination.write(line(4));
    expect(written()).toBe(line(1) + line(2) + line(3) + line(4));
    destination.flushSync();
  });

  it("writes a pending line once the flush interval has passed", () => {
    vi.useFakeTimers();
    const destination = createLogDestination(fd, { flushIntervalMs: 100 });
    destination.write(line(1));
    vi.advanceTimersByTime(99);
    expect(written()).toBe("");
    vi.advanceTimersByTime(1);
    expect(written()).toBe(line(1));
    destination.write(line(2));
    vi.advanceTimersByTime(100);
    expect(written()).toBe(line(1) + line(2));
  });

  it("writes what is pending on flushSync and on pino's flush", () => {
    const destination = createLogDestination(fd);
    destination.write(line(1));
    destination.flushSync();
    expect(written()).toBe(line(1));
    destination.write(line(2));
    const done = vi.fn();
    destination.flush(done);
    expect(written()).toBe(line(1) + line(2));
    expect(done).toHaveBeenCalledOnce();
  });

  it("refuses a batch size or interval that is not positive", () => {
    expect(() => createLogDestination(fd, { batchBytes: 0 })).toThrow(RangeError);
    expect(() => createLogDestination(fd, { flushIntervalMs: -1 })).toThrow(RangeError);
  });

  it.each([
    ["process.exit()", "exit", 3],
    ["an uncaught exception", "throw", 1],
    ["an empty event loop", "return", 0],
  ])("writes pending lines when the process ends through %s", async (_, ending, status) => {
    const outcome = await run(
      process.execPath,
      ["--conditions=source", "--import", "tsx", script, file, ending],
      { cwd: fileURLToPath(new URL("..", import.meta.url)) },
    ).then(
      () => 0,
      (error: { code?: number }) => error.code,
    );
    expect(outcome).toBe(status);
    const lines = written().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ msg: "last words", ending });
  });
});
