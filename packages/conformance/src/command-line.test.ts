import { describe, expect, it } from "vitest";
import { splitCommandLine } from "./command-line.js";
import { ConformanceOptionsError } from "./conformance-options-error.js";

describe("splitCommandLine", () => {
  it.each([
    ["node plugin.js --flag", ["node", "plugin.js", "--flag"]],
    ["  node   'my plugin.js'  ", ["node", "my plugin.js"]],
    ['node "a \\"b\\" c" d\\ e', ["node", 'a "b" c', "d e"]],
    ["node ''", ["node", ""]],
    ["node 'it'\"s\"", ["node", "its"]],
    ['node "$HOME"', ["node", "$HOME"]],
  ])("splits %j", (line, words) => {
    expect(splitCommandLine(line)).toEqual(words);
  });

  it.each(["", "   ", "node 'open", 'node "open', "node \\"])("refuses %j", (line) => {
    expect(() => splitCommandLine(line)).toThrow(ConformanceOptionsError);
  });
});
