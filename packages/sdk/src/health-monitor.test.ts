import { afterEach, describe, expect, it, vi } from "vitest";
import { createFakeClock } from "./fake-clock.js";
import { createHealthMonitor } from "./health-monitor.js";
import type { HealthReport } from "./plugin.js";
import { createCapturingLogger } from "./test-helpers.js";

function monitorWith(probe?: () => HealthReport | Promise<HealthReport>, timeoutMs = 5000) {
  const clock = createFakeClock();
  const capture = createCapturingLogger();
  const monitor = createHealthMonitor({ clock, logger: capture.logger, timeoutMs, probe });
  return { clock, monitor, entries: capture.entries };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("createHealthMonitor", () => {
  it("is serving without a probe", async () => {
    const { monitor, clock } = monitorWith();
    expect(await monitor.check()).toEqual({
      status: "serving",
      message: "",
      lastChangeMs: clock.now(),
      checkedMs: clock.now(),
    });
  });

  it("moves lastChangeMs only when the status changes, and checkedMs on every check", async () => {
    let report: HealthReport = { status: "serving" };
    const { monitor, clock } = monitorWith(() => report);
    const t0 = clock.now();
    await monitor.check();
    clock.advance(1000);
    expect(await monitor.check()).toMatchObject({ lastChangeMs: t0, checkedMs: t0 + 1000 });
    report = { status: "not_serving", message: "store down" };
    clock.advance(1000);
    expect(await monitor.check()).toMatchObject({
      status: "not_serving",
      message: "store down",
      lastChangeMs: t0 + 2000,
    });
  });

  it("reports a throwing probe as not serving with a safe message and logs the error", async () => {
    const { monitor, entries } = monitorWith(async () => {
      throw new Error("token=abc123 rejected");
    });
    const snapshot = await monitor.check();
    expect(snapshot).toMatchObject({ status: "not_serving", message: "health probe failed" });
    expect(JSON.stringify(snapshot)).not.toContain("abc123");
    expect(entries).toHaveLength(1);
    expect((entries[0]?.obj.err as Error | undefined)?.stack).toBeDefined();
  });

  it("reports a probe that does not answer in time as not serving", async () => {
    vi.useFakeTimers();
    const { monitor } = monitorWith(() => new Promise<HealthReport>(() => {}), 250);
    const pending = monitor.check();
    await vi.advanceTimersByTimeAsync(250);
    expect(await pending).toMatchObject({
      status: "not_serving",
      message: "health probe timed out",
    });
  });

  it("treats an unexpected report as not serving and bounds the message", async () => {
    const { monitor } = monitorWith(
      () => ({ status: "degraded", message: "m".repeat(5000) }) as unknown as HealthReport,
    );
    const snapshot = await monitor.check();
    expect(snapshot.status).toBe("not_serving");
    expect(snapshot.message).toHaveLength(1024);
  });

  it("shares one probe run among concurrent checks", async () => {
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { monitor } = monitorWith(async () => {
      runs += 1;
      await gate;
      return { status: "serving" };
    });
    const checks = [monitor.check(), monitor.check(), monitor.check()];
    release();
    await Promise.all(checks);
    expect(runs).toBe(1);
    await monitor.check();
    expect(runs).toBe(2);
  });

  it("uses a probe installed later", async () => {
    const { monitor } = monitorWith();
    monitor.setProbe(() => ({ status: "not_serving" }));
    expect((await monitor.check()).status).toBe("not_serving");
    monitor.setProbe(undefined);
    expect((await monitor.check()).status).toBe("serving");
  });
});
