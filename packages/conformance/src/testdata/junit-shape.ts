import type { ConformanceReport } from "../conformance-report.js";
import type { XmlElement } from "./parse-xml.js";
import { parseXml } from "./parse-xml.js";

/** What a JUnit consumer reads from the XML: per suite, its counts and its test cases. */
export interface JunitShape {
  readonly totals: { tests: number; failures: number; skipped: number };
  readonly suites: ReadonlyArray<{
    readonly name: string;
    readonly declared: { tests: number; failures: number; skipped: number };
    readonly counted: { tests: number; failures: number; skipped: number };
  }>;
  /** `classname name: failure|skipped|pass` for every test case. */
  readonly cases: readonly string[];
}

const count = (element: XmlElement, name: string) => Number(element.attributes[name]);

/**
 * Parses JUnit XML with a conformant XML parser (throws when it is not well-formed) and reads
 * back the declared and the actual counts, so tests can compare them with the report.
 */
export function readJunit(xml: string): JunitShape {
  const root = parseXml(xml);
  if (root.name !== "testsuites") throw new Error(`root element is <${root.name}>`);
  const cases: string[] = [];
  const suites = root.children
    .filter((child) => child.name === "testsuite")
    .map((suite) => {
      const testcases = suite.children.filter((child) => child.name === "testcase");
      const outcome = (testcase: XmlElement) =>
        testcase.children.some((child) => child.name === "failure")
          ? "failure"
          : testcase.children.some((child) => child.name === "skipped")
            ? "skipped"
            : "pass";
      for (const testcase of testcases) {
        cases.push(
          `${testcase.attributes.classname} ${testcase.attributes.name}: ${outcome(testcase)}`,
        );
      }
      return {
        name: suite.attributes.name ?? "",
        declared: {
          tests: count(suite, "tests"),
          failures: count(suite, "failures"),
          skipped: count(suite, "skipped"),
        },
        counted: {
          tests: testcases.length,
          failures: testcases.filter((testcase) => outcome(testcase) === "failure").length,
          skipped: testcases.filter((testcase) => outcome(testcase) === "skipped").length,
        },
      };
    });
  return {
    totals: {
      tests: count(root, "tests"),
      failures: count(root, "failures"),
      skipped: count(root, "skipped"),
    },
    suites,
    cases,
  };
}

/** The totals a JUnit file of `report` must declare. */
export function expectedJunitTotals(report: ConformanceReport) {
  return {
    tests: report.summary.total,
    failures: report.summary.fail,
    skipped: report.summary.skipped + report.summary.notApplicable,
  };
}
