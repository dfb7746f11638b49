/** The roles of the API, from least to most privileged. */
export const roles = ["viewer", "operator", "admin"] as const;

/**
 * A role: `viewer` reads; `operator` also executes and controls tasks and tests prompts and
 * models; `admin` also creates, changes and deletes everything, including configuration.
 */
export type Role = (typeof roles)[number];

/** True when `value` names a role. */
export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (roles as readonly string[]).includes(value);
}

/** True when a caller holding `held` may use a route that requires `required`. */
export function roleSatisfies(held: readonly Role[], required: Role): boolean {
  const need = roles.indexOf(required);
  return held.some((role) => roles.indexOf(role) >= need);
}

/** The roles named in a token's `roles` claim (unknown names are ignored). */
export function rolesFromClaim(claim: unknown): Role[] {
  if (!Array.isArray(claim)) return [];
  return claim.filter(isRole);
}
