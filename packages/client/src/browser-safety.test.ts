import { builtinModules } from "node:module";
import { fileURLToPath } from "node:url";
import type { Plugin } from "esbuild";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const nodeBuiltins = new Set(builtinModules);

/** Bundles an entry for the browser and lists every Node built-in its import graph reaches. */
async function nodeImportsOf(entry: string): Promise<string[]> {
  const found: string[] = [];
  const detectNodeImports: Plugin = {
    name: "detect-node-imports",
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /.*/ }, (args) => {
        const bare = args.path.replace(/^node:/, "").split("/")[0] ?? "";
        if (args.path.startsWith("node:") || nodeBuiltins.has(bare)) {
          found.push(`${args.path} (imported by ${args.importer})`);
          return { path: args.path, external: true };
        }
        return undefined;
      });
    },
  };
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    bundle: true,
    write: false,
    platform: "browser",
    format: "esm",
    conditions: ["source"],
    logLevel: "silent",
    plugins: [detectNodeImports],
  });
  expect(result.errors).toEqual([]);
  const output = result.outputFiles.map((file) => file.text).join("\n");
  if (/\bfrom\s*["']node:|\bimport\(\s*["']node:|\brequire\(\s*["']node:/.test(output)) {
    found.push("a node: specifier in the bundled output");
  }
  return found;
}

describe("the browser entry", () => {
  it("reaches no Node built-in module through its whole import graph", async () => {
    expect(await nodeImportsOf("./index.ts")).toEqual([]);
  });

  it("is checked by a scan that does find the Node built-ins of the node entry", async () => {
    const found = await nodeImportsOf("./node.ts");
    expect(found.some((entry) => entry.startsWith("node:http"))).toBe(true);
  });
});
