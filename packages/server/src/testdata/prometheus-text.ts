// A strict parser of the Prometheus text exposition format (version 0.0.4), for tests that read
// `/metrics` the way a Prometheus server would and refuse anything a scrape would refuse.

/** The metric types the format knows. */
export type PrometheusType = "counter" | "gauge" | "histogram" | "summary" | "untyped";

/** One sample line: its own name (e.g. `x_bucket`), labels, value and optional timestamp. */
export interface PrometheusSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
  readonly timestampMs?: number;
}

/** A metric family: its HELP, TYPE and every sample line, in order. */
export interface PrometheusFamily {
  readonly name: string;
  readonly help: string;
  readonly type: PrometheusType;
  readonly samples: readonly PrometheusSample[];
}

/** Why a text was refused, with the 1-based line number. */
export class PrometheusTextError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
    this.name = "PrometheusTextError";
  }
}

const metricName = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const labelName = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const types = new Set<string>(["counter", "gauge", "histogram", "summary", "untyped"]);
// Go's strconv.ParseFloat, which Prometheus uses: decimal and exponent forms, Inf and NaN in any case.
const floatPattern =
  /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[iI][nN][fF](?:[iI][nN][iI][tT][yY])?)$/;
const nanPattern = /^[nN][aA][nN]$/;
const timestampPattern = /^-?\d+$/;

interface MutableFamily {
  name: string;
  help: string | undefined;
  type: PrometheusType | undefined;
  samples: PrometheusSample[];
  seriesKeys: Set<string>;
}

/**
 * Parses an exposition and checks what Prometheus checks: names and label syntax, escapes, at
 * most one HELP and TYPE per family with TYPE before its samples, each family in one group,
 * sample names allowed for the family's type, no duplicate series or label, histogram buckets
 * with `le`, cumulative and ending in `+Inf` equal to `_count`, summary quantiles with a
 * `quantile` label, and a final line feed. Throws `PrometheusTextError` on the first violation.
 */
export function parsePrometheusText(text: string): PrometheusFamily[] {
  if (text.length > 0 && !text.endsWith("\n")) {
    throw new PrometheusTextError(text.split("\n").length, "the last line must end with \\n");
  }
  const lines = text.split("\n");
  lines.pop();
  const families: MutableFamily[] = [];
  const closed = new Set<string>();
  let current: MutableFamily | undefined;

  const familyFor = (name: string, lineNo: number): MutableFamily => {
    if (current?.name === name) return current;
    if (closed.has(name) || families.some((f) => f.name === name)) {
      throw new PrometheusTextError(lineNo, `lines of ${name} are not in one group`);
    }
    if (current) closed.add(current.name);
    current = { name, help: undefined, type: undefined, samples: [], seriesKeys: new Set() };
    families.push(current);
    return current;
  };

  lines.forEach((raw, index) => {
    const lineNo = index + 1;
    const line = raw.replace(/^[ \t]+/, "");
    if (line.length === 0) return;
    if (line.startsWith("#")) {
      const meta = /^#[ \t]+(HELP|TYPE)[ \t]+(\S+)(?:[ \t]+(.*))?$/.exec(line);
      if (meta === null) return; // a plain comment
      const [, keyword, name = "", rest = ""] = meta;
      if (metricName.exec(name)?.[0] !== name) {
        throw new PrometheusTextError(lineNo, `invalid metric name ${JSON.stringify(name)}`);
      }
      const family = familyFor(name, lineNo);
      if (keyword === "HELP") {
        if (family.help !== undefined)
          throw new PrometheusTextError(lineNo, `second HELP for ${name}`);
        family.help = unescapeHelp(rest, lineNo);
      } else {
        if (family.type !== undefined)
          throw new PrometheusTextError(lineNo, `second TYPE for ${name}`);
        if (family.samples.length > 0) {
          throw new PrometheusTextError(lineNo, `TYPE for ${name} after its samples`);
        }
        const type = rest.trim();
        if (!types.has(type))
          throw new PrometheusTextError(lineNo, `unknown type ${JSON.stringify(type)}`);
        family.type = type as PrometheusType;
      }
      return;
    }
    const sample = parseSampleLine(line, lineNo);
    const base = current && belongsTo(sample.name, current) ? current.name : sample.name;
    const family = familyFor(base, lineNo);
    if (!belongsTo(sample.name, family)) {
      throw new PrometheusTextError(
        lineNo,
        `sample ${sample.name} does not belong to ${family.name}`,
      );
    }
    const key = `${sample.name}${JSON.stringify(Object.entries(sample.labels).sort())}`;
    if (family.seriesKeys.has(key))
      throw new PrometheusTextError(lineNo, `duplicate series ${key}`);
    family.seriesKeys.add(key);
    family.samples.push(sample);
  });

  return families.map((family) => {
    const done: PrometheusFamily = {
      name: family.name,
      help: family.help ?? "",
      type: family.type ?? "untyped",
      samples: family.samples,
    };
    if (done.type === "histogram") checkHistogram(done);
    if (done.type === "summary") checkSummary(done);
    return done;
  });
}

/** Whether a sample named `name` may appear in `family` (suffixes only for its type). */
function belongsTo(name: string, family: MutableFamily): boolean {
  if (name === family.name) return family.type !== "histogram";
  const suffix = name.slice(family.name.length);
  if (!name.startsWith(family.name)) return false;
  if (family.type === "histogram") return ["_bucket", "_sum", "_count"].includes(suffix);
  if (family.type === "summary") return ["_sum", "_count"].includes(suffix);
  return false;
}

function parseSampleLine(line: string, lineNo: number): PrometheusSample {
  const name = metricName.exec(line)?.[0];
  if (name === undefined)
    throw new PrometheusTextError(lineNo, "a sample must start with a metric name");
  let rest = line.slice(name.length);
  const labels: Record<string, string> = {};
  if (rest.startsWith("{")) {
    rest = rest.slice(1);
    for (;;) {
      rest = rest.replace(/^[ \t]+/, "");
      if (rest.startsWith("}")) break;
      const label = labelName.exec(rest)?.[0];
      if (label === undefined) throw new PrometheusTextError(lineNo, "invalid label name");
      if (label.startsWith("__"))
        throw new PrometheusTextError(lineNo, `reserved label name ${label}`);
      if (label in labels) throw new PrometheusTextError(lineNo, `duplicate label ${label}`);
      rest = rest.slice(label.length).replace(/^[ \t]+/, "");
      if (!rest.startsWith('="') && !/^=[ \t]*"/.test(rest)) {
        throw new PrometheusTextError(lineNo, `label ${label} needs ="value"`);
      }
      rest = rest.slice(rest.indexOf('"') + 1);
      let value = "";
      for (;;) {
        const ch = rest[0];
        if (ch === undefined)
          throw new PrometheusTextError(lineNo, `unterminated value of ${label}`);
        rest = rest.slice(1);
        if (ch === '"') break;
        if (ch === "\\") {
          const escaped = rest[0];
          rest = rest.slice(1);
          if (escaped === "\\") value += "\\";
          else if (escaped === '"') value += '"';
          else if (escaped === "n") value += "\n";
          else
            throw new PrometheusTextError(lineNo, `invalid escape \\${escaped ?? ""} in ${label}`);
        } else {
          value += ch;
        }
      }
      labels[label] = value;
      rest = rest.replace(/^[ \t]+/, "");
      if (rest.startsWith(",")) rest = rest.slice(1);
      else if (!rest.startsWith("}"))
        throw new PrometheusTextError(lineNo, "labels must be separated by ,");
    }
    rest = rest.slice(1);
  }
  if (!/^[ \t]/.test(rest))
    throw new PrometheusTextError(lineNo, "a value must follow the name and labels");
  const fields = rest.trim().split(/[ \t]+/);
  if (fields.length > 2)
    throw new PrometheusTextError(lineNo, "unexpected text after the timestamp");
  const [valueText = "", timestampText] = fields;
  const value = parseFloatStrict(valueText, lineNo);
  if (timestampText !== undefined && !timestampPattern.test(timestampText)) {
    throw new PrometheusTextError(lineNo, `invalid timestamp ${JSON.stringify(timestampText)}`);
  }
  return {
    name,
    labels,
    value,
    ...(timestampText !== undefined ? { timestampMs: Number(timestampText) } : {}),
  };
}

function parseFloatStrict(text: string, lineNo: number): number {
  if (nanPattern.test(text)) return Number.NaN;
  if (!floatPattern.test(text))
    throw new PrometheusTextError(lineNo, `invalid value ${JSON.stringify(text)}`);
  const unsigned = text.replace(/^[+-]/, "");
  const magnitude = /^i/i.test(unsigned) ? Number.POSITIVE_INFINITY : Number(unsigned);
  return text.startsWith("-") ? -magnitude : magnitude;
}

function unescapeHelp(text: string, lineNo: number): string {
  return text.replace(/\\(.?)/g, (_, escaped: string) => {
    if (escaped === "\\") return "\\";
    if (escaped === "n") return "\n";
    throw new PrometheusTextError(lineNo, `invalid escape \\${escaped} in HELP`);
  });
}

function seriesOf(
  samples: readonly PrometheusSample[],
  without: string,
): Map<string, PrometheusSample[]> {
  const series = new Map<string, PrometheusSample[]>();
  for (const sample of samples) {
    const rest = Object.entries(sample.labels)
      .filter(([k]) => k !== without)
      .sort();
    const key = JSON.stringify(rest);
    series.set(key, [...(series.get(key) ?? []), sample]);
  }
  return series;
}

function checkHistogram(family: PrometheusFamily): void {
  const fail = (message: string) => {
    throw new PrometheusTextError(0, `histogram ${family.name}: ${message}`);
  };
  for (const [key, samples] of seriesOf(family.samples, "le")) {
    const buckets = samples.filter((s) => s.name === `${family.name}_bucket`);
    const count = samples.find((s) => s.name === `${family.name}_count`);
    if (!samples.some((s) => s.name === `${family.name}_sum`)) fail(`${key} has no _sum`);
    if (count === undefined) fail(`${key} has no _count`);
    let previousBound = Number.NEGATIVE_INFINITY;
    let previousCount = 0;
    for (const bucket of buckets) {
      const le = bucket.labels.le;
      if (le === undefined) return fail(`a bucket of ${key} has no le label`);
      const bound = le === "+Inf" ? Number.POSITIVE_INFINITY : parseFloatStrict(le, 0);
      if (!(bound > previousBound)) fail(`buckets of ${key} are not in increasing le order`);
      if (bucket.value < previousCount) fail(`bucket le=${le} of ${key} is not cumulative`);
      previousBound = bound;
      previousCount = bucket.value;
    }
    const last = buckets.at(-1);
    if (last?.labels.le !== "+Inf") fail(`${key} has no +Inf bucket`);
    if (last?.value !== count?.value) fail(`+Inf bucket of ${key} differs from _count`);
  }
}

function checkSummary(family: PrometheusFamily): void {
  for (const sample of family.samples) {
    if (sample.name === family.name && sample.labels.quantile === undefined) {
      throw new PrometheusTextError(
        0,
        `summary ${family.name}: a quantile sample has no quantile label`,
      );
    }
  }
}
