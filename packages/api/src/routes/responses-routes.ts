import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import type { ApiServices } from "../api-services.js";
import { BadRequestError } from "../errors.js";
import { setNextLink } from "../pagination.js";
import { IdParams, PageOf, problemResponses } from "../schemas/common.js";
import { ResponseListQuery, ResponseSchema } from "../schemas/response-schemas.js";

/** Response routes: the recorded runs, filterable. */
export async function responseRoutes(scope: FastifyInstance, services: ApiServices): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ["responses"];

  app.get(
    "/responses",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        operationId: "listResponses",
        summary: "List responses, newest first, filtered by task, model, status and time",
        querystring: ResponseListQuery,
        response: { 200: PageOf(ResponseSchema, "ResponsePage"), ...problemResponses() },
      },
    },
    async (request, reply) => {
      for (const key of ["since", "until"] as const) {
        const value = request.query[key];
        if (value !== undefined && Number.isNaN(Date.parse(value))) {
          throw new BadRequestError(`${key} must be an RFC 3339 date-time`);
        }
      }
      const page = await services.responses.list(request.query);
      setNextLink(request, reply, page.nextCursor);
      return { items: page.items, next_cursor: page.nextCursor };
    },
  );

  app.get(
    "/responses/:id",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        operationId: "getResponse",
        summary: "Read a response",
        params: IdParams,
        response: { 200: ResponseSchema, ...problemResponses(404) },
      },
    },
    async (request) => services.responses.get(request.params.id),
  );
}
