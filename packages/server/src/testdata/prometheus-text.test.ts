import { describe, expect, it } from "vitest";
import { parsePrometheusText } from "./prometheus-text.js";

const histogram = [
  "# HELP d_seconds Duration.",
  "# TYPE d_seconds histogram",
  'd_seconds_bucket{m="a",le="0.1"} 1',
  'd_seconds_bucket{m="a",le="+Inf"} 2',
  'd_seconds_sum{m="a"} 0.55',
  'd_seconds_count{m="a"} 2',
  "",
].join("\n");

describe("parsePrometheusText", () => {
  it("reads families, labels with escapes, special values and timestamps", () => {
    const families = parsePrometheusText(
      [
        "# a plain comment",
        "# HELP c_total Calls with \\\\ and\\nlines.",
        "# TYPE c_total counter",
        'c_total{path="/a\\"b\\\\c\\nd",code="ok",} 3 1700000000000',
        "# TYPE g gauge",
        "g Nan",
        "g2 -Inf",
        "g3 1.5e-7",
        "",
      ].join("\n"),
    );
    expect(families.map((f) => [f.name, f.type])).toEqual([
      ["c_total", "counter"],
      ["g", "gauge"],
      ["g2", "untyped"],
      ["g3", "untyped"],
    ]);
    expect(families[0]?.help).toBe("Calls with \\ and\nlines.");
    expect(families[0]?.samples[0]).toEqual({
      name: "c_total",
      labels: { path: '/a"b\\c\nd', code: "ok" },
      value: 3,
      timestampMs: 1_700_000_000_000,
    });
    expect(families[1]?.samples[0]?.value).toBeNaN();
    expect(families[2]?.samples[0]?.value).toBe(Number.NEGATIVE_INFINITY);
    expect(families[3]?.samples[0]?.value).toBe(1.5e-7);
  });

  it("reads a labelled histogram's buckets, sum and count", () => {
    const [family] = parsePrometheusText(histogram);
    expect(family?.samples.map((s) => [s.name, s.labels, s.value])).toEqual([
      ["d_seconds_bucket", { m: "a", le: "0.1" }, 1],
      ["d_seconds_bucket", { m: "a", le: "+Inf" }, 2],
      ["d_seconds_sum", { m: "a" }, 0.55],
      ["d_seconds_count", { m: "a" }, 2],
    ]);
  });

  it.each([
    ["a missing final line feed", "g 1", "must end with"],
    ["an invalid metric name", "1g 1\n", "must start with a metric name"],
    ["a missing value", "g\n", "a value must follow"],
    ["a value that is not a number", "g one\n", "invalid value"],
    ["text after the timestamp", "g 1 2 3\n", "after the timestamp"],
    ["a fractional timestamp", "g 1 2.5\n", "invalid timestamp"],
    ["an unquoted label value", "g{a=b} 1\n", "needs ="],
    ["an unterminated label value", 'g{a="b} 1\n', "unterminated"],
    ["an unknown escape", 'g{a="\\t"} 1\n', "invalid escape"],
    ["a duplicate label", 'g{a="1",a="2"} 1\n', "duplicate label"],
    ["a reserved label name", 'g{__a="1"} 1\n', "reserved label"],
    ["a duplicate series", 'g{a="1"} 1\ng{a="1"} 2\n', "duplicate series"],
    ["an unknown type", "# TYPE g meter\ng 1\n", "unknown type"],
    ["a second TYPE", "# TYPE g gauge\n# TYPE g gauge\ng 1\n", "second TYPE"],
    ["a TYPE after the samples", "g 1\n# TYPE g gauge\n", "after its samples"],
    ["a family split in two groups", 'g 1\nh 1\ng{a="1"} 2\n', "not in one group"],
    ["a bare sample in a histogram", "# TYPE d histogram\nd 1\n", "does not belong"],
    ["a histogram without +Inf", histogram.replace('le="+Inf"', 'le="1"'), "no \\+Inf bucket"],
    [
      "a histogram whose +Inf differs from _count",
      histogram.replace('_count{m="a"} 2', '_count{m="a"} 3'),
      "differs from _count",
    ],
    [
      "buckets that are not cumulative",
      histogram.replace('le="0.1"} 1', 'le="0.1"} 3'),
      "not cumulative",
    ],
    ["a histogram without _sum", histogram.replace('d_seconds_sum{m="a"} 0.55\n', ""), "no _sum"],
  ])("refuses %s", (_, text, reason) => {
    expect(() => parsePrometheusText(text)).toThrow(new RegExp(reason));
  });
});
