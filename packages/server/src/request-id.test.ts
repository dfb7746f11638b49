import { describe, expect, it } from "vitest";
import { requestIdFromHeaders, traceparentFromHeaders } from "./request-id.js";

const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

describe("requestIdFromHeaders", () => {
  it("keeps a well-formed x-request-id", () => {
    expect(requestIdFromHeaders({ "x-request-id": "req-42.a:b_c" })).toBe("req-42.a:b_c");
  });

  it("replaces an x-request-id that could forge log lines or headers", () => {
    const id = requestIdFromHeaders({ "x-request-id": 'evil"\nlevel=error' });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("replaces an over-long x-request-id", () => {
    expect(requestIdFromHeaders({ "x-request-id": "a".repeat(129) })).not.toContain("aaaa");
  });

  it("uses the trace id of a valid traceparent when no request id came", () => {
    expect(requestIdFromHeaders({ traceparent })).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
  });

  it("generates a UUID otherwise", () => {
    const first = requestIdFromHeaders({});
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(requestIdFromHeaders({})).not.toBe(first);
  });
});

describe("traceparentFromHeaders", () => {
  it("accepts W3C trace context", () => {
    expect(traceparentFromHeaders({ traceparent })).toBe(traceparent);
  });

  it.each([
    "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
    "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
    "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
    "garbage",
  ])("rejects %s", (value) => {
    expect(traceparentFromHeaders({ traceparent: value })).toBeUndefined();
  });
});
