import { fail, pass, skip } from "../check-result.js";
import type { ProtocolCheck } from "../conformance-check.js";
import { labelFromResourceFixture } from "../fixtures.js";
import { describeError } from "../rpc-outcome.js";
import { callSupports, callSupportsUnknown, unknownResource } from "../session-calls.js";

/** The skip reason of checks that need resource fixtures. */
export const noResourceFixture =
  "no resource fixture: pass --resource provider/type/sku/region or a fixtures file";

/** `supports.fixture-supported`. */
export const supportsFixtureCheck: ProtocolCheck = {
  id: "supports.fixture-supported",
  level: "basic",
  scope: "protocol",
  description: "Supports answers supported=true for every resource fixture the plugin claims.",
  async run(session, context) {
    const fixtures = context.options.fixtures.resources;
    if (fixtures.length === 0) return skip(noResourceFixture);
    const problems: string[] = [];
    for (const fixture of fixtures) {
      const outcome = await callSupports(session, fixture);
      const label = labelFromResourceFixture(fixture);
      if (!outcome.ok) problems.push(`${label}: ${describeError(outcome.error)}`);
      else if (!outcome.value.supported) {
        problems.push(`${label}: supported=false (${JSON.stringify(outcome.value.reason)})`);
      }
    }
    if (problems.length > 0) return fail("supported=true for every fixture", problems.join("; "));
    return pass();
  },
};

/** `supports.unsupported-has-reason`. */
export const supportsReasonCheck: ProtocolCheck = {
  id: "supports.unsupported-has-reason",
  level: "basic",
  scope: "protocol",
  description:
    "Supports answers (not fails) supported=false with a non-empty reason for a resource the plugin cannot price.",
  async run(session) {
    const outcome = await callSupportsUnknown(session);
    const expected = `supported=false with a reason for provider "${unknownResource.provider}"`;
    if (!outcome.ok) return fail(expected, describeError(outcome.error));
    if (outcome.value.supported) return fail(expected, "supported=true");
    if (outcome.value.reason.trim() === "") return fail(expected, "supported=false, empty reason");
    return pass(`reason ${JSON.stringify(outcome.value.reason)}`);
  },
};
