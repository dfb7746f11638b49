import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { resourceTypeDefinitions, resourceTypeMatches, resourceTypesOf } from "./resource-types.js";

describe("resourceTypeMatches", () => {
  it("never gives one spelling two resource types of the same provider", () => {
    for (const definition of resourceTypeDefinitions) {
      for (const { alias } of definition.aliases) {
        const providers = resourceTypeMatches(alias).map((match) => match.definition.provider);
        expect(new Set(providers).size, alias).toBe(providers.length);
      }
    }
  });

  it("ties every tool-specific spelling to exactly one provider", () => {
    for (const definition of resourceTypeDefinitions) {
      for (const alias of definition.aliases.filter((candidate) => candidate.form !== "short")) {
        expect(resourceTypeMatches(alias.alias), alias.alias).toHaveLength(1);
      }
    }
  });

  it("matches case-insensitively and ignores surrounding blanks", () => {
    const [match] = resourceTypeMatches("  AZURE-NATIVE:COMPUTE:VIRTUALMACHINE\t");
    expect(match?.definition.resourceType).toBe("vm");
    expect(match?.alias.alias).toBe("azure-native:compute:VirtualMachine");
  });

  it("reads short names shared by providers once per provider", () => {
    const providers = resourceTypeMatches("vm").map((match) => match.definition.provider);
    expect(providers.sort()).toEqual(["aws", "azure", "gcp"]);
  });

  it("marks the Windows spellings as Windows machines", () => {
    expect(resourceTypeMatches("azurerm_windows_virtual_machine")[0]?.alias.operatingSystem).toBe(
      "windows",
    );
  });

  it("knows nothing of unknown spellings, including prototype keys", () => {
    for (const input of ["aws_nat_gateway", "", "__proto__", "constructor", "toString"]) {
      expect(resourceTypeMatches(input), input).toEqual([]);
    }
  });
});

describe("resourceTypesOf", () => {
  it("lists the canonical resource types of a provider", () => {
    expect(resourceTypesOf("aws").map((definition) => definition.resourceType)).toEqual([
      "ec2",
      "ebs",
      "s3",
      "rds",
      "lambda",
    ]);
  });
});

describe("resourceTypeDefinitions", () => {
  it("are exactly the spellings the package README lists for each canonical type", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const table = readme.slice(readme.indexOf("| Canonical "));
    for (const definition of resourceTypeDefinitions) {
      const canonical = `${definition.provider}/${definition.resourceType}`;
      const row = table.split("\n").find((line) => line.startsWith(`| ${canonical} `));
      expect(row, canonical).toBeDefined();
      const listed = [...(row ?? "").matchAll(/`([^`]+)`/g)].map((match) => match[1]);
      expect(listed.sort(), canonical).toEqual(
        definition.aliases.map((alias) => alias.alias).sort(),
      );
    }
  });
});
