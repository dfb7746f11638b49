import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ResponseRecord } from "../schemas/response-schemas.js";
import { checkProcessorDirectory, createFileProcessor, safeFileStem } from "./file-processor.js";

const response = JSON.parse(
  readFileSync(new URL("../testdata/response-record.json", import.meta.url), "utf8"),
) as ResponseRecord;

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
