import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Catalogue, CatalogueService } from "./catalogue.js";
import { CatalogueError, createCatalogue } from "./catalogue.js";
import { embeddedCatalogueSource, loadEmbeddedCatalogue } from "./embedded-catalogue.js";

const catalogueDir = new URL("./catalogue/", import.meta.url);
const testdata = new URL("./testdata/", import.meta.url);

function fixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(name, testdata), "utf8")) as Record<string, unknown>;
}

function problemsOf(sheets: unknown[], manifest: unknown = fixture("manifest.json")): string[] {
  try {
    createCatalogue({ manifest, sheets });
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogueError);
    return [...(error as CatalogueError).problems];
  }
  return expect.unreachable("the catalogue was accepted");
}

function withPrices(prices: unknown): Record<string, unknown> {
  return { ...fixture("hourly-sheet.json"), prices };
}

describe("createCatalogue", () => {
  it("indexes a valid sheet by provider, resource type, region and case-insensitive SKU", () => {
    const catalogue = createCatalogue({
      manifest: fixture("manifest.json"),
      sheets: [fixture("hourly-sheet.json"), fixture("request-sheet.json")],
    });
    const ec2 = catalogue.service("aws", "ec2");
    expect(ec2?.regions).toEqual(["eu-west-1", "us-east-1"]);
    expect(ec2?.find("US-EAST-1", "T3.Micro")).toMatchObject({ sku: "t3.micro", rate: 0.0104 });
    expect(catalogue.service("aws", "lambda")?.find("us-east-1", "x86_64")).toMatchObject({
      rate: 0.0000166667,
      ratePerMillionRequests: 0.2,
    });
    expect(catalogue.entries).toHaveLength(4);
  });

  it("rejects zero and negative prices", () => {
    const problems = problemsOf([withPrices({ "us-east-1": { a: 0, b: -1 } })]);
    expect(problems).toEqual([
      "aws/ec2/prices/us-east-1/a: must be > 0",
      "aws/ec2/prices/us-east-1/b: must be > 0",
    ]);
  });

  it("rejects an as-of date that does not exist", () => {
    const problems = problemsOf([{ ...fixture("hourly-sheet.json"), as_of: "2025-02-30" }]);
    expect(problems).toEqual(["aws/ec2/as_of: 2025-02-30 is not a date"]);
  });

  it("rejects a source that is not an https URL", () => {
    const problems = problemsOf([
      { ...fixture("hourly-sheet.json"), source: "http://example.com" },
    ]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^aws\/ec2\/source: /);
  });

  it("rejects a missing source and unknown fields", () => {
    const { source: _source, ...withoutSource } = fixture("hourly-sheet.json");
    const problems = problemsOf([{ ...withoutSource, comment: "x" }]);
    expect(problems.some((problem) => problem.includes("source"))).toBe(true);
    expect(problems.some((problem) => problem.includes("additional properties"))).toBe(true);
  });

  it("rejects two sheets for the same provider and resource type", () => {
    const problems = problemsOf([fixture("hourly-sheet.json"), fixture("hourly-sheet.json")]);
    expect(problems).toEqual(["aws/ec2: more than one sheet prices this resource type"]);
  });

  it("rejects SKUs that differ only in case", () => {
    const problems = problemsOf([withPrices({ "us-east-1": { "t3.micro": 1, "T3.micro": 2 } })]);
    expect(problems).toEqual(["aws/ec2/prices/us-east-1/T3.micro: duplicate SKU"]);
  });

  it("rejects a region without prices and a sheet without regions", () => {
    expect(problemsOf([withPrices({ "us-east-1": {} })])).toEqual([
      "aws/ec2/prices/us-east-1: no prices",
    ]);
    expect(problemsOf([withPrices({})])).toEqual(["aws/ec2/prices: no regions"]);
  });

  it("rejects a default SKU missing from a region", () => {
    const sheet = fixture("request-sheet.json");
    const problems = problemsOf([
      {
        ...sheet,
        prices: { "us-east-1": { x86_64: 1 }, "eu-west-1": { arm64: 1 } },
        per_million_requests: { "us-east-1": { x86_64: 1 }, "eu-west-1": { arm64: 1 } },
      },
    ]);
    expect(problems).toEqual(["aws/lambda/prices/eu-west-1: default_sku x86_64 has no price"]);
  });

  it("requires request prices for GB-second prices, covering the same SKUs", () => {
    const { per_million_requests: _requests, ...withoutRequests } = fixture("request-sheet.json");
    expect(problemsOf([withoutRequests])).toEqual([
      "aws/lambda: per_gb_second prices need per_million_requests",
    ]);
    expect(
      problemsOf([
        { ...fixture("request-sheet.json"), per_million_requests: { "us-east-1": { arm64: 0.2 } } },
      ]),
    ).toEqual([
      "aws/lambda: per_million_requests must price exactly the regions and SKUs of prices",
    ]);
  });

  it("rejects request prices on a sheet that is not request-billed", () => {
    const problems = problemsOf([
      { ...fixture("hourly-sheet.json"), per_million_requests: { "us-east-1": { "t3.micro": 1 } } },
    ]);
    expect(problems).toEqual([
      "aws/ec2: per_million_requests only belongs to per_gb_second sheets",
    ]);
  });

  it("rejects a sheet in another currency than the manifest", () => {
    const problems = problemsOf([{ ...fixture("hourly-sheet.json"), currency: "EUR" }]);
    expect(problems).toEqual(["aws/ec2/currency: EUR differs from the manifest's USD"]);
  });

  it("rejects a malformed manifest and an empty catalogue", () => {
    expect(problemsOf([fixture("hourly-sheet.json")], { version: "one" }).length).toBeGreaterThan(
      0,
    );
    expect(problemsOf([])).toEqual(["no price sheets"]);
  });

  it("lists every problem of every sheet at once", () => {
    const problems = problemsOf([
      { ...fixture("hourly-sheet.json"), as_of: "2025-13-01" },
      { ...fixture("request-sheet.json"), currency: "usd" },
      "not a sheet",
    ]);
    expect(problems.length).toBeGreaterThanOrEqual(3);
    expect(new CatalogueError(problems).message).toContain("price catalogue is invalid:\n- ");
  });
});

describe("loadEmbeddedCatalogue", () => {
  const catalogue: Catalogue = loadEmbeddedCatalogue();
  const service = (provider: "aws" | "azure" | "gcp", type: string): CatalogueService => {
    const found = catalogue.service(provider, type);
    if (!found) return expect.unreachable(`${provider}/${type} is missing`);
    return found;
  };
  const skusEverywhere = (found: CatalogueService): Set<string> => {
    const [first = "", ...others] = found.regions;
    return new Set(
      found.skus(first).filter((sku) => others.every((region) => found.find(region, sku))),
    );
  };

  it("validates the shipped files once and shares the result", () => {
    expect(loadEmbeddedCatalogue()).toBe(catalogue);
    expect(catalogue.version).toMatch(/^\d{4}\.\d{2}\.\d+$/);
  });

  it("gives every price a public https source, a real as-of date and a positive finite amount", () => {
    for (const entry of catalogue.entries) {
      const label = `${entry.provider}/${entry.resourceType}/${entry.region}/${entry.sku}`;
      expect(new URL(entry.source).protocol, label).toBe("https:");
      expect(new Date(`${entry.asOf}T00:00:00Z`).toISOString().slice(0, 10), label).toBe(
        entry.asOf,
      );
      expect(Number.isFinite(entry.rate) && entry.rate > 0, label).toBe(true);
      expect(entry.currency, label).toBe("USD");
    }
  });

  it("contains no duplicate keys in the JSON files themselves", () => {
    const files = readdirSync(catalogueDir).filter((name) => name.endsWith(".json"));
    expect(files.length).toBe(embeddedCatalogueSource.sheets.length + 1);
    const countKeys = (value: unknown): number =>
      typeof value === "object" && value !== null
        ? Object.values(value).reduce<number>((sum, child) => sum + 1 + countKeys(child), 0)
        : 0;
    for (const file of files) {
      const text = readFileSync(new URL(file, catalogueDir), "utf8");
      const written = text.match(/"(?:[^"\\]|\\.)*"\s*:/g)?.length ?? 0;
      expect(written, file).toBe(countKeys(JSON.parse(text)));
    }
  });

  it("prices at least 30 EC2 instance types of every required family in at least 4 regions", () => {
    const ec2 = service("aws", "ec2");
    expect(ec2.regions.length).toBeGreaterThanOrEqual(4);
    const everywhere = skusEverywhere(ec2);
    expect(everywhere.size).toBeGreaterThanOrEqual(30);
    const families = new Set([...everywhere].map((sku) => sku.split(".")[0]));
    for (const family of ["t3", "m5", "m6i", "m7i", "c5", "c6i", "c7i", "r5", "r6i", "r7i"]) {
      expect(families.has(family), family).toBe(true);
    }
  });

  it("prices every EBS volume type, S3 Standard, RDS classes and Lambda", () => {
    expect([...skusEverywhere(service("aws", "ebs"))].sort()).toEqual([
      "gp2",
      "gp3",
      "io1",
      "io2",
      "sc1",
      "st1",
      "standard",
    ]);
    expect(service("aws", "s3").defaultSku).toBe("STANDARD");
    const rds = skusEverywhere(service("aws", "rds"));
    for (const sku of ["db.t3.micro", "db.m5.large", "db.r5.large"])
      expect(rds.has(sku), sku).toBe(true);
    const lambda = service("aws", "lambda");
    expect(lambda.find("us-east-1", "x86_64")).toMatchObject({
      rate: 0.0000166667,
      ratePerMillionRequests: 0.2,
    });
  });

  it("prices at least 10 Azure sizes of the B, D, E and F series in 2 regions", () => {
    const vm = service("azure", "vm");
    expect(vm.regions.length).toBeGreaterThanOrEqual(2);
    const sizes = skusEverywhere(vm);
    expect(sizes.size).toBeGreaterThanOrEqual(10);
    for (const series of ["B", "D", "E", "F"]) {
      expect(
        [...sizes].some((size) => size.startsWith(`Standard_${series}`)),
        series,
      ).toBe(true);
    }
  });

  it("prices at least 10 Compute Engine machine types of the e2, n2 and c2 series in 2 regions", () => {
    const compute = service("gcp", "compute");
    expect(compute.regions.length).toBeGreaterThanOrEqual(2);
    const types = skusEverywhere(compute);
    expect(types.size).toBeGreaterThanOrEqual(10);
    for (const series of ["e2-", "n2-", "c2-"]) {
      expect(
        [...types].some((type) => type.startsWith(series)),
        series,
      ).toBe(true);
    }
  });

  it("holds the published reference figures", () => {
    expect(catalogue.service("aws", "ec2")?.find("us-east-1", "t3.micro")?.rate).toBe(0.0104);
    expect(catalogue.service("aws", "ebs")?.find("us-east-1", "gp3")?.rate).toBe(0.08);
    expect(catalogue.service("aws", "s3")?.find("us-east-1", "STANDARD")?.rate).toBe(0.023);
  });

  it("doubles every EC2 price from one size to the next within a family (catches typos)", () => {
    const ec2 = service("aws", "ec2");
    const ladders = [
      ["nano", "micro", "small", "medium", "large", "xlarge", "2xlarge"],
      ["large", "xlarge", "2xlarge", "4xlarge"],
    ];
    for (const region of ec2.regions) {
      for (const family of ["t3", "m5", "m6i", "m7i", "c5", "c6i", "c7i", "r5", "r6i", "r7i"]) {
        const ladder = (family === "t3" ? ladders[0] : ladders[1]) ?? [];
        const rates = ladder.map((size) => ec2.find(region, `${family}.${size}`)?.rate ?? 0);
        for (let i = 1; i < rates.length; i++) {
          const ratio = Math.round(((rates[i] ?? 0) / (rates[i - 1] ?? 1)) * 1e9) / 1e9;
          expect(ratio, `${region} ${family}.${ladder[i]}`).toBe(2);
        }
      }
    }
  });

  it("never prices a region below us-east-1 for the same EC2 instance type", () => {
    const ec2 = service("aws", "ec2");
    for (const region of ec2.regions) {
      for (const sku of ec2.skus(region)) {
        const base = ec2.find("us-east-1", sku)?.rate ?? Number.POSITIVE_INFINITY;
        expect(ec2.find(region, sku)?.rate ?? 0, `${region} ${sku}`).toBeGreaterThanOrEqual(base);
      }
    }
  });
});
