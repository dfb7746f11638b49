import { describe, expect, it } from "vitest";
import { urlForLog } from "./logger.js";

describe("urlForLog", () => {
  it("keeps a path without query as it is", () => {
    expect(urlForLog("/costplugin.v1.CostSourceService/Name")).toBe(
      "/costplugin.v1.CostSourceService/Name",
    );
  });

  it("redacts credential-like query values and Connect GET payloads", () => {
    const url = urlForLog("/x?access_token=abc&apiKey=def&message=%7B%7D&encoding=json");
    expect(url).not.toContain("abc");
    expect(url).not.toContain("def");
    expect(url).not.toContain("%7B%7D");
    expect(url).toContain("encoding=json");
  });

  it("shortens long values", () => {
    expect(urlForLog(`/x?q=${"a".repeat(500)}`).length).toBeLessThan(100);
  });
});
