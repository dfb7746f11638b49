import { ErrorCode } from "@costplugin/proto";
import { PluginError } from "@costplugin/sdk";
import { describe, expect, it } from "vitest";
import { findTag, readQuantityTag } from "./tags.js";

const spec = { names: ["size_gb", "size"], min: 0, max: 100, unit: "GB" };

describe("findTag", () => {
  it("follows the order of the names, not of the tags", () => {
    expect(findTag({ size: "1", size_gb: "2" }, ["size_gb", "size"])).toEqual({
      name: "size_gb",
      value: "2",
    });
  });

  it("matches tag names case-insensitively", () => {
    expect(findTag({ Size_GB: "3" }, ["size_gb"])?.name).toBe("Size_GB");
  });

  it("finds nothing in an empty map", () => {
    expect(findTag({}, ["size_gb"])).toBeUndefined();
  });
});

describe("readQuantityTag", () => {
  it("reads plain decimals, fractions and exponents", () => {
    expect(readQuantityTag({ size_gb: " 12.5 " }, spec)?.value).toBe(12.5);
    expect(readQuantityTag({ size_gb: "1e1" }, spec)?.value).toBe(10);
    expect(readQuantityTag({ size_gb: ".5" }, spec)?.value).toBe(0.5);
  });

  it("answers undefined when no tag is present", () => {
    expect(readQuantityTag({ other: "x" }, spec)).toBeUndefined();
  });

  it("throws INVALID_RESOURCE naming the tag for a value out of range", () => {
    const error = (() => {
      try {
        readQuantityTag({ Size: "101" }, spec);
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(PluginError);
    expect((error as PluginError).code).toBe(ErrorCode.INVALID_RESOURCE);
    expect((error as PluginError).message).toBe(
      'tag "Size" must be a number of GB from 0 to 100, got "101"',
    );
  });

  it("rejects signs, hexadecimal, units and blanks", () => {
    for (const value of ["+1", "-0", "0x1", "5GB", " ", "1,5", "1e", "١٢"]) {
      expect(() => readQuantityTag({ size_gb: value }, spec), value).toThrow(PluginError);
    }
  });
});
