import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { CallSignal } from "./call-signal.js";

describe("CallSignal", () => {
  it("aborts with deadline_exceeded once the deadline passes", async () => {
    const call = new CallSignal(5);
    const signal = call.signal;
    await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
    expect(signal.reason).toBeInstanceOf(ConnectError);
    expect(signal.reason).toMatchObject({
      code: Code.DeadlineExceeded,
      rawMessage: "the operation timed out",
    });
  });

  it("is aborted from the start when the deadline is zero", () => {
    const call = new CallSignal(0);
    expect(call.signal.aborted).toBe(true);
    expect(call.signal.reason).toMatchObject({ code: Code.DeadlineExceeded });
  });

  it("keeps the first reason it was aborted with", () => {
    const call = new CallSignal(undefined);
    const first = new ConnectError("server is shutting down", Code.Unavailable);
    call.abort(first);
    call.abort(new Error("later"));
    call.end();
    expect(call.signal.reason).toBe(first);
  });

  it("hands out a signal already aborted when read only after the call failed", () => {
    const call = new CallSignal(undefined);
    const failure = new Error("boom");
    call.abort(failure);
    expect(call.signal.aborted).toBe(true);
    expect(call.signal.reason).toBe(failure);
  });

  it("aborts a listened-to signal with an AbortError when the call ends", () => {
    const call = new CallSignal(undefined);
    const reasons: unknown[] = [];
    call.signal.addEventListener("abort", () => reasons.push(call.signal.reason));
    call.end();
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatchObject({ name: "AbortError", message: "This operation was aborted" });
  });

  it("aborts signals derived with AbortSignal.any when the call ends", () => {
    const call = new CallSignal(undefined);
    const derived = AbortSignal.any([call.signal]);
    call.end();
    expect(derived.aborted).toBe(true);
  });

  it("stops the deadline clock when the call ends", async () => {
    const call = new CallSignal(20);
    call.end();
    const signal = call.signal;
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(signal.reason).not.toBeInstanceOf(ConnectError);
  });
});
