import { describe, expect, it } from "vitest";
import { createSeriesCache } from "./series-cache.js";

const series = {
  resourceId: "i-1",
  provider: "aws",
  accountId: "1",
  service: "AmazonEC2",
  region: "us-east-1",
  tagGroup: "",
};

describe("createSeriesCache", () => {
  it("finds a series only by all of its dimensions and its source", () => {
    const cache = createSeriesCache();
    cache.set("a", series, 1);
    cache.set("a", { ...series, accountId: "2" }, 2);
    expect(cache.get("a", series)).toBe(1);
    expect(cache.get("a", { ...series, accountId: "2" })).toBe(2);
    expect(cache.get("a", { ...series, region: "eu-west-1" })).toBeUndefined();
    expect(cache.get("a", { ...series, tagGroup: '["prod"]' })).toBeUndefined();
    expect(cache.get("b", series)).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it("takes the entries of another cache", () => {
    const cache = createSeriesCache();
    const learned = createSeriesCache();
    learned.set("a", series, 7);
    cache.merge(learned);
    expect(cache.get("a", series)).toBe(7);
  });

  it("starts over past its size limit instead of growing", () => {
    const cache = createSeriesCache(2);
    cache.set("a", { ...series, resourceId: "i-1" }, 1);
    cache.set("a", { ...series, resourceId: "i-2" }, 2);
    cache.set("a", { ...series, resourceId: "i-3" }, 3);
    expect(cache.size).toBe(1);
    expect(cache.get("a", { ...series, resourceId: "i-3" })).toBe(3);
    expect(cache.get("a", { ...series, resourceId: "i-1" })).toBeUndefined();
  });
});
