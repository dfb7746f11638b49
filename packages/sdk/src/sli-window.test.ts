import { describe, expect, it } from "vitest";
import { createSliWindow } from "./sli-window.js";

const t0 = Date.UTC(2025, 0, 1);

describe("createSliWindow", () => {
  it("sums the buckets a range overlaps, at bucket resolution", () => {
    const window = createSliWindow({ bucketSeconds: 10, retentionSeconds: 3600 });
    window.record(t0 + 1_000, false, 0.1);
    window.record(t0 + 9_999, true, 0.2);
    window.record(t0 + 10_000, false, 0.3);
    expect(window.summarize({ startMs: t0 + 5_000, endMs: t0 + 6_000 })).toMatchObject({
      total: 2,
      faults: 1,
    });
    expect(window.summarize({ startMs: t0, endMs: t0 + 10_000 }).total).toBe(2);
    expect(window.summarize({ startMs: t0, endMs: t0 + 10_001 }).total).toBe(3);
    expect(window.summarize({ startMs: t0 + 20_000, endMs: t0 + 30_000 }).total).toBe(0);
  });

  it("keeps at most retention / width + 1 buckets", () => {
    const window = createSliWindow({ bucketSeconds: 10, retentionSeconds: 60 });
    for (let i = 0; i < 100; i++) window.record(t0 + i * 10_000, false, 0.01);
    expect(window.size).toBe(7);
    expect(window.summarize({ startMs: t0, endMs: t0 + 1_000_000 }).total).toBe(7);
  });

  it("ignores a record older than the retention", () => {
    const window = createSliWindow({ bucketSeconds: 10, retentionSeconds: 60 });
    window.record(t0 + 600_000, false, 0.01);
    window.record(t0, true, 0.01);
    expect(window.summarize({ startMs: t0, endMs: t0 + 1_000_000 })).toMatchObject({
      total: 1,
      faults: 0,
    });
  });
});
