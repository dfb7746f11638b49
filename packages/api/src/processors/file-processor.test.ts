import { mkdirSync, mkdtempSync, readdirSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ResponseRecord } from "../schemas/response-schemas.js";
import { checkProcessorDirectory, createFileProcessor, safeFileStem } from "./file-processor.js";

const response: ResponseRecord = {
  id: "0b7c2a9e-1111-4222-8333-444455556666",
  task_id: "t",
  task_name: "Quarterly ../../report",
  prompt_id: "p",
  rendered_prompt: "x",
  variables: {},
  model_id: "offline:echo",
  output: "hello",
  status: "succeeded",
  error: null,
  tokens_in: 1,
  tokens_out: 1,
  latency_ms: 1,
  cost_estimate: 0,
  attempts: 1,
  trigger: "manual",
  scheduled_for: null,
  processor_results: [],
  created_at: "2025-01-06T08:00:00.000Z",
  started_at: "2025-01-06T08:00:00.000Z",
  finished_at: "2025-01-06T08:00:01.000Z",
};

describe("safeFileStem", () => {
  it("keeps only lowercase letters, digits and dashes", () => {
    expect(safeFileStem("../../etc/passwd")).toBe("etc-passwd");
    expect(safeFileStem("C:\\Windows\\System32")).toBe("c-windows-system32");
    expect(safeFileStem("Ünïcodé név")).toBe("unicode-nev");
    expect(safeFileStem("...")).toBe("task");
    expect(safeFileStem("a".repeat(300))).toHaveLength(60);
  });
});

describe("checkProcessorDirectory", () => {
  it("refuses absolute paths, drive letters, parent segments and control characters", () => {
    for (const bad of ["/tmp", "C:\\x", "c:/x", "..", "a/../..", "x\\..\\y", "a\u0001b"]) {
      expect(() => checkProcessorDirectory(bad), bad).toThrow();
    }
    expect(checkProcessorDirectory("reports/daily/")).toBe(join("reports", "daily", "/"));
  });
});

describe("createFileProcessor", () => {
  it("writes one text file per response and keeps the first file when processed twice", async () => {
    const root = mkdtempSync(join(tmpdir(), "fp-"));
    const processor = createFileProcessor(root);
    const first = await processor.process(response, {
      enabled: true,
      directory: "txt",
      format: "text",
    });
    await processor.process(
      { ...response, output: "changed" },
      { enabled: true, directory: "txt", format: "text" },
    );
    expect(first.detail).toBe(
      join("txt", "20250106080000000-quarterly-report-0b7c2a9e-1111-4222-8333-444455556666.txt"),
    );
    expect(readdirSync(join(root, "txt"))).toHaveLength(1);
  });

  it("refuses a directory that a symbolic link leads out of the root", async () => {
    const root = mkdtempSync(join(tmpdir(), "fp-"));
    const outside = mkdtempSync(join(tmpdir(), "fp-outside-"));
    mkdirSync(join(root, "inside"));
    symlinkSync(outside, join(root, "inside", "escape"));
    const processor = createFileProcessor(root);
    await expect(
      processor.process(response, { enabled: true, directory: "inside/escape", format: "json" }),
    ).rejects.toThrow("escapes the processor root");
    expect(readdirSync(outside)).toEqual([]);
  });
});
