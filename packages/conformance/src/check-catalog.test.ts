import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { listConformanceChecks } from "./check-catalog.js";

describe("listConformanceChecks", () => {
  it("gives every check a unique id of the form group.name", () => {
    const ids = listConformanceChecks().map((check) => check.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+(-[a-z]+)*\.[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it("documents every check with its level in the README table", async () => {
    const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
    for (const check of listConformanceChecks()) {
      const row = new RegExp(
        `\\|\\s*\`${check.id.replace(/\./g, "\\.")}\`\\s*\\|\\s*${check.level}\\s*\\|`,
      );
      expect(readme).toMatch(row);
    }
  });

  it("runs the garbage check after every other check but the lifecycle ones", () => {
    const ids = listConformanceChecks().map((check) => check.id);
    const rest = ids.slice(ids.indexOf("robustness.garbage-bytes") + 1);
    expect(rest.every((id) => id.startsWith("lifecycle."))).toBe(true);
  });
});
