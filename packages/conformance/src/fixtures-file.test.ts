import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ConformanceOptionsError } from "./conformance-options-error.js";
import { fixturesFromDocument, loadFixturesFile } from "./fixtures-file.js";

const testdata = (name: string) => fileURLToPath(new URL(`./testdata/${name}`, import.meta.url));

describe("loadFixturesFile", () => {
  it("reads resources in both key spellings and the actual-cost fixture from YAML", async () => {
    const fixtures = await loadFixturesFile(testdata("fixtures.yaml"));
    expect(fixtures.resources).toEqual([
      { provider: "aws", resourceType: "ec2", sku: "t3.micro", region: "us-east-1", tags: {} },
      {
        provider: "aws",
        resourceType: "ebs",
        sku: "gp3",
        region: "us-east-1",
        tags: { size_gb: "100" },
      },
    ]);
    expect(fixtures.actualCost?.resourceId).toBe("i-0123456789");
    expect(fixtures.actualCost?.end.toISOString()).toBe("2025-01-04T00:00:00.000Z");
  });

  it("reads JSON", async () => {
    const fixtures = await loadFixturesFile(testdata("fixtures.json"));
    expect(fixtures.resources[0]?.provider).toBe("gcp");
    expect(fixtures.actualCost).toBeUndefined();
  });

  it("names the file when it cannot be read", async () => {
    await expect(loadFixturesFile(testdata("missing.yaml"))).rejects.toThrow(/missing\.yaml/);
  });
});

describe("fixturesFromDocument", () => {
  it.each([
    ["a list at the root", [], /must be a mapping/],
    ["resources that are not a list", { resources: {} }, /must be a list/],
    [
      "a resource without provider",
      { resources: [{ resourceType: "ec2" }] },
      /resources\[0\]\.provider is required/,
    ],
    [
      "a tag that is an object",
      { resources: [{ provider: "a", resourceType: "b", tags: { x: {} } }] },
      /tags\.x/,
    ],
    ["an actual cost without dates", { actualCost: { resourceId: "i" } }, /actualCost\.start/],
    [
      "an actual cost ending before it starts",
      {
        actualCost: { resourceId: "i", start: "2025-01-02T00:00:00Z", end: "2025-01-01T00:00:00Z" },
      },
      /must end after it starts/,
    ],
  ])("refuses %s", (_, document, message) => {
    expect(() => fixturesFromDocument(document, "f.yaml")).toThrow(ConformanceOptionsError);
    expect(() => fixturesFromDocument(document, "f.yaml")).toThrow(message);
  });

  it("accepts an empty document", () => {
    expect(fixturesFromDocument(null, "f.yaml")).toEqual({ resources: [] });
  });
});
