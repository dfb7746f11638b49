import createError from "@fastify/error";

// Every REST error the API raises is declared here, once; the error handler renders each as an
// RFC 9457 problem document whose `type` is derived from the code.

/** 400: the request is malformed or refers to something that cannot be used. */
export const BadRequestError = createError<"COSTPLUGIN_BAD_REQUEST", 400, [string]>(
  "COSTPLUGIN_BAD_REQUEST",
  "%s",
  400,
);
/** 401: no bearer token, or one that fails verification. */
export const UnauthorizedError = createError<"COSTPLUGIN_UNAUTHORIZED", 401, [string]>(
  "COSTPLUGIN_UNAUTHORIZED",
  "%s",
  401,
);
/** 403: the token is valid but its roles do not allow the route. */
export const ForbiddenError = createError<"COSTPLUGIN_FORBIDDEN", 403, [string]>(
  "COSTPLUGIN_FORBIDDEN",
  "%s",
  403,
);
/** 404: the resource does not exist. */
export const NotFoundError = createError<"COSTPLUGIN_NOT_FOUND", 404, [string]>(
  "COSTPLUGIN_NOT_FOUND",
  "%s",
  404,
);
/** 409: the request conflicts with the current state (duplicate name, resource in use, state). */
export const ConflictError = createError<"COSTPLUGIN_CONFLICT", 409, [string]>(
  "COSTPLUGIN_CONFLICT",
  "%s",
  409,
);
/** 429: the token used up its requests for the current window. */
export const TooManyRequestsError = createError<"COSTPLUGIN_RATE_LIMITED", 429, [string]>(
  "COSTPLUGIN_RATE_LIMITED",
  "%s",
  429,
);

/** Extra members added to the problem document of an error. */
export type ProblemExtensions = Readonly<Record<string, unknown>>;

const extensionsKey = Symbol("costplugin.problemExtensions");

/** Attaches extension members (such as `missing_variables`) to an error's problem document. */
export function withProblemExtensions<E extends Error>(error: E, extensions: ProblemExtensions): E {
  (error as unknown as Record<symbol, unknown>)[extensionsKey] = extensions;
  return error;
}

/** The extension members attached by `withProblemExtensions`, if any. */
export function problemExtensionsOf(error: unknown): ProblemExtensions | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  return (error as Record<symbol, ProblemExtensions | undefined>)[extensionsKey];
}
