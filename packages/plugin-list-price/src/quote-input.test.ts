import { describe, expect, it } from "vitest";
import { quoteInput, truncateInput } from "./quote-input.js";

describe("quoteInput", () => {
  it("quotes short input unchanged apart from JSON escapes", () => {
    expect(quoteInput('t3."micro"')).toBe('"t3.\\"micro\\""');
  });

  it("escapes control characters and lone surrogates", () => {
    expect(quoteInput("a\nb\u0000\ud800")).toBe('"a\\nb\\u0000\\ud800"');
  });

  it("cuts long input to 64 code points and marks the cut", () => {
    const quoted = quoteInput("\u{1F4B8}".repeat(1000));
    expect(quoted).toBe(`"${"\u{1F4B8}".repeat(64)}…"`);
  });

  it("stays cheap on megabyte input", () => {
    expect(quoteInput("x".repeat(4_000_000))).toHaveLength(64 + 3);
  });
});

describe("truncateInput", () => {
  it("keeps input of 64 code points or fewer as it is", () => {
    expect(truncateInput("y".repeat(64))).toBe("y".repeat(64));
  });

  it("cuts longer input and marks the cut", () => {
    expect(truncateInput("y".repeat(65))).toBe(`${"y".repeat(64)}…`);
  });
});
