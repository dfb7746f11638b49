import { Decimal } from "decimal.js";
import { describe, expect, it } from "vitest";
import { costRowFromVendor, dayFromAccruedAt, splitTag } from "./cost-row.js";
import { canonicalAmount, sumAmounts } from "./decimal-amount.js";

describe("dayFromAccruedAt", () => {
  it.each([
    ["2026-06-05", "2026-06-05"],
    ["2026-06-05+00:00", "2026-06-05"],
    ["2026-06-05T00:00:00Z", "2026-06-05"],
    ["2026-02-30", undefined],
    ["06/05/2026", undefined],
    ["2026-06-05; drop", undefined],
  ])("reads %s as %s", (input, day) => {
    expect(dayFromAccruedAt(input)).toBe(day);
  });
});

describe("splitTag", () => {
  it("splits on the last colon, since keys may contain colons", () => {
    expect(splitTag("aws:cloudformation:stack-name:web")).toEqual({
      key: "aws:cloudformation:stack-name",
      value: "web",
    });
    expect(splitTag("standalone")).toEqual({ key: "standalone", value: "" });
  });
});

describe("canonicalAmount", () => {
  it("gives equal text to equal amounts and keeps every digit", () => {
    expect(canonicalAmount("100.0")).toBe("100");
    expect(canonicalAmount("1e2")).toBe("100");
    expect(canonicalAmount("-0.000")).toBe("0");
    expect(canonicalAmount("0.1234567890123456789012")).toBe("0.1234567890123456789012");
    expect(canonicalAmount("12,5")).toBeUndefined();
    expect(canonicalAmount("NaN")).toBeUndefined();
    expect(canonicalAmount("1".repeat(80))).toBeUndefined();
  });

  it.each([
    ["007.50", "7.5"],
    ["-0.50", "-0.5"],
    ["-00", "0"],
    ["1.", "1"],
    ["-12.340", "-12.34"],
    ["12.34", "12.34"],
    ["+5", "5"],
    [".5", "0.5"],
    ["-", undefined],
    ["", undefined],
    ["1.2.3", undefined],
    [" 1 ", "1"],
  ])("reads %j as %j", (input, canonical) => {
    expect(canonicalAmount(input)).toBe(canonical);
  });

  it("gives the text of an exact decimal conversion for generated amounts", () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed;
    };
    const digits = (n: number) => Array.from({ length: n }, () => String(next() % 10)).join("");
    for (let i = 0; i < 2000; i += 1) {
      const sign = next() % 4 === 0 ? "-" : "";
      const whole = digits(1 + (next() % 12));
      const fraction = next() % 3 === 0 ? "" : `.${digits(next() % 10)}`;
      const text = `${sign}${whole}${fraction}`;
      const exact = new Decimal(text);
      expect(canonicalAmount(text), text).toBe(exact.isZero() ? "0" : exact.toFixed());
    }
  });

  it("adds without binary rounding", () => {
    expect(sumAmounts(["0.1", "0.2"])).toBe("0.3");
  });
});

describe("costRowFromVendor", () => {
  it("keeps the amount exact, the currency, sorted tags and usage", () => {
    expect(
      costRowFromVendor(
        {
          accrued_at: "2026-06-05+00:00",
          amount: "100.10",
          currency: "EUR",
          provider: "aws",
          resource_id: "i-0abc",
          tags: ["team:payments", "env:prod"],
          usage_amount: "24.0",
          usage_unit: "hour",
        },
        [],
      ),
    ).toEqual({
      day: "2026-06-05",
      provider: "aws",
      accountId: "",
      service: "",
      region: "",
      resourceId: "i-0abc",
      tagGroup: "",
      amount: "100.1",
      currency: "EUR",
      usageAmount: "24",
      usageUnit: "hour",
      tags: ["env:prod", "team:payments"],
    });
  });

  it("keys rows by the values of tag groupings", () => {
    const row = costRowFromVendor(
      {
        accrued_at: "2026-06-05",
        amount: "1",
        currency: "USD",
        resource_id: "r",
        tags: ["env:prod"],
      },
      ["tag:env", "tag:team"],
    );
    expect(typeof row === "object" && row.tagGroup).toBe('["prod",""]');
  });

  it.each([
    [null, "it is not an object"],
    [{ amount: "1", currency: "USD" }, "accrued_at is missing"],
    [{ accrued_at: "2026-06-05", currency: "USD" }, "amount is missing"],
    [
      { accrued_at: "2026-06-05", amount: "1", currency: "usd" },
      "currency is not a three-letter code",
    ],
    [
      { accrued_at: "2026-06-05", amount: "1", currency: "USD", resource_id: 7 },
      "resource_id is not a string of at most 512 characters",
    ],
    [
      { accrued_at: "2026-06-05", amount: "1", currency: "USD", tags: "env:prod" },
      "tags is not a list of at most 200 strings",
    ],
  ])("rejects %j: %s", (raw, problem) => {
    expect(costRowFromVendor(raw, [])).toBe(problem);
  });
});
