import type { FastifyRequest } from "fastify";

/** Marks an operation whose body may be left out, for the OpenAPI document. */
export const optionalBodyMarker = "x-costplugin-optional-body";

/**
 * A `preValidation` hook for routes whose body fields are all optional: a request sent with no
 * body at all (`curl -X POST`) is read as `{}` instead of failing validation. A body that is
 * present is validated as usual.
 */
export async function optionalBody(request: FastifyRequest): Promise<void> {
  if (request.body === undefined) request.body = {};
}
