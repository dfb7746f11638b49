import { describe, expect, it } from "vitest";
import { niceScale } from "../src/charts/nice-scale.js";

describe("niceScale", () => {
  it("rounds the top up to a readable step", () => {
    expect(niceScale(7.592)).toEqual({ top: 8, ticks: [0, 2, 4, 6, 8] });
    expect(niceScale(0.87)).toEqual({ top: 1, ticks: [0, 0.25, 0.5, 0.75, 1] });
    expect(niceScale(1234)).toEqual({ top: 1500, ticks: [0, 500, 1000, 1500] });
  });

  it("gives a unit axis for zero, negative or non-finite maxima", () => {
    for (const max of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(niceScale(max).top).toBe(1);
    }
  });
});
