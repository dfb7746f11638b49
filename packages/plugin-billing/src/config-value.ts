/**
 * A string setting as written in the configuration file: either a `${ENV_VAR}` reference,
 * resolved from the environment when used, or a literal value.
 */
export type ConfigValue =
  | { readonly kind: "reference"; readonly variable: string }
  | { readonly kind: "literal"; readonly value: string };

const referencePattern = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** Reads `${NAME}` as a reference and anything else as a literal. */
export function configValueFromText(text: string): ConfigValue {
  const match = referencePattern.exec(text.trim());
  return match?.[1] !== undefined
    ? { kind: "reference", variable: match[1] }
    : { kind: "literal", value: text };
}

/** True when `text` looks like an attempted `${...}` reference that is not a valid one. */
export function isMalformedReference(text: string): boolean {
  return text.includes("${") && !referencePattern.test(text.trim());
}
