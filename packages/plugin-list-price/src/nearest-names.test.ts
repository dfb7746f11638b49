import { describe, expect, it } from "vitest";
import { nearestNames } from "./nearest-names.js";

describe("nearestNames", () => {
  const known = ["t3.nano", "t3.micro", "t3.small", "m5.large", "m5.xlarge"];

  it("puts the closest name first, ignoring case and surrounding blanks", () => {
    expect(nearestNames(known, "  T3.MICR0 ")[0]).toBe("t3.micro");
  });

  it("returns at most the requested count", () => {
    expect(nearestNames(known, "m5.2xlarge", 2)).toEqual(["m5.xlarge", "m5.large"]);
  });

  it("breaks ties alphabetically so answers are stable", () => {
    expect(nearestNames(["b", "a"], "c")).toEqual(["a", "b"]);
  });

  it("compares only the start of very long input", () => {
    expect(nearestNames(known, `t3.micro${"z".repeat(1_000_000)}`, 1)).toEqual(["t3.micro"]);
  });

  it("returns nothing when nothing is known", () => {
    expect(nearestNames([], "t3.micro")).toEqual([]);
  });
});
