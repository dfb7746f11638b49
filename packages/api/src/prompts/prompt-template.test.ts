import { describe, expect, it } from "vitest";
import { checkPromptTemplate, renderPromptTemplate } from "./prompt-template.js";

describe("checkPromptTemplate", () => {
  it("finds root variables but not paths inside each and with blocks", () => {
    const used = checkPromptTemplate(
      "{{title}} {{#each items}}{{name}} {{../title}}{{/each}} {{#with owner}}{{email}}{{/with}} {{#if flag}}{{extra}}{{/if}} {{lookup map key}}",
      ["title", "items", "owner", "flag", "extra", "map", "key"].map((name) => ({ name })),
    );
    expect(used).toEqual(["extra", "flag", "items", "key", "map", "owner", "title"]);
  });

  it("refuses partials, decorators and helpers outside the allowed set", () => {
    expect(() => checkPromptTemplate("{{> p}}", [])).toThrow("partials");
    expect(() => checkPromptTemplate("{{log x}}", [{ name: "x" }])).toThrow('unknown helper "log"');
    expect(() =>
      checkPromptTemplate("{{#each (helperMissing x)}}{{/each}}", [{ name: "x" }]),
    ).toThrow("unknown helper");
  });
});

describe("renderPromptTemplate", () => {
  it("renders without HTML escaping and with defaults", () => {
    const out = renderPromptTemplate(
      "{{a}} & {{b}}",
      [{ name: "a" }, { name: "b", default: "<b>" }],
      { a: "'x'" },
    );
    expect(out).toEqual({ rendered: "'x' & <b>", variables: { a: "'x'", b: "<b>" } });
  });

  it("does not reach prototype properties", () => {
    const out = renderPromptTemplate("{{a.constructor}}|{{a.__proto__}}", [{ name: "a" }], {
      a: {},
    });
    expect(out.rendered).toBe("|");
  });

  it("names unknown variables", () => {
    expect(() => renderPromptTemplate("x", [], { nope: 1 })).toThrow("unknown variables: nope");
  });
});
