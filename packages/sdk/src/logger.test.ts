import { afterEach, describe, expect, it, vi } from "vitest";
import { stderrLogger } from "./logger.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("stderrLogger", () => {
  it("writes one JSON line to stderr with the error's type, message and stack", () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    const stdout = vi.spyOn(process.stdout, "write");
    stderrLogger.error({ err: new TypeError("bad"), method: "GetActualCost" }, "failed");
    expect(stdout).not.toHaveBeenCalled();
    expect(lines).toHaveLength(1);
    expect(lines[0]?.endsWith("\n")).toBe(true);
    const entry = JSON.parse(lines[0] ?? "");
    expect(entry).toMatchObject({
      level: "error",
      msg: "failed",
      method: "GetActualCost",
      err: { type: "TypeError", message: "bad" },
    });
    expect(entry.err.stack).toContain("logger.test.ts");
  });
});
