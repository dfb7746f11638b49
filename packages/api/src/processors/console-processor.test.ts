import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ResponseRecord } from "../schemas/response-schemas.js";
import { createConsoleProcessor } from "./console-processor.js";

const sampleResponse = JSON.parse(
  readFileSync(new URL("../testdata/response-record.json", import.meta.url), "utf8"),
) as ResponseRecord;

describe("createConsoleProcessor", () => {
  it("writes one line per response without the terminal control sequences a model may emit", async () => {
    const lines: string[] = [];
    const processor = createConsoleProcessor((line) => lines.push(line));
    await processor.process(
      { ...sampleResponse, output: "ok\u001b[2J\u001b]0;owned\u0007 done\r\nnext\u009b" },
      { enabled: true, format: "text" },
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      '[costplugin task "Quarterly ../../report" succeeded offline:echo] ok[2J]0;owned done next\n',
    );
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is checked
    expect(lines[0]?.slice(0, -1)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it("writes the whole response as one escaped JSON line in json format", async () => {
    const lines: string[] = [];
    const processor = createConsoleProcessor((line) => lines.push(line));
    await processor.process(
      { ...sampleResponse, output: "a\u001bb\nc" },
      { enabled: true, format: "json" },
    );
    expect(lines[0]?.endsWith("\n")).toBe(true);
    expect(lines[0]?.slice(0, -1)).not.toContain("\n");
    expect(JSON.parse(lines[0] ?? "").output).toBe("a\u001bb\nc");
  });
});
