import { fail, notApplicable, pass } from "../check-result.js";
import type { PluginCheck, ProtocolCheck } from "../conformance-check.js";
import { describeError } from "../rpc-outcome.js";
import { callName } from "../session-calls.js";

/** `name.non-empty`. */
export const nameNonEmptyCheck: ProtocolCheck = {
  id: "name.non-empty",
  level: "basic",
  scope: "protocol",
  description: "Name answers a non-empty display name.",
  async run(session) {
    const outcome = await callName(session);
    if (!outcome.ok) return fail("a NameResponse", describeError(outcome.error));
    if (outcome.value.name.trim() === "") {
      return fail("a non-empty name", JSON.stringify(outcome.value.name));
    }
    return pass(`name ${JSON.stringify(outcome.value.name)}`);
  },
};

/** `name.consistent`. */
export const nameConsistentCheck: PluginCheck = {
  id: "name.consistent",
  level: "basic",
  scope: "plugin",
  description: "Name answers the same name on every protocol the plugin speaks.",
  async run(context) {
    const names = new Map<string, string>();
    for (const [protocol, session] of context.sessions) {
      const outcome = await callName(session);
      if (outcome.ok) names.set(protocol, outcome.value.name);
    }
    if (names.size < 2) return notApplicable("fewer than two protocols answered Name");
    if (new Set(names.values()).size === 1) return pass();
    return fail(
      "the same name on every protocol",
      [...names].map(([protocol, name]) => `${protocol}: ${JSON.stringify(name)}`).join(", "),
    );
  },
};
