import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import type { ApiServices } from "../api-services.js";
import { BadRequestError, NotFoundError } from "../errors.js";
import type { ModelInfo } from "../models/model-catalog.js";
import { paginateList, setNextLink } from "../pagination.js";
import { PageOf, PageQuery, problemResponses } from "../schemas/common.js";
import {
  ModelConfigInput,
  ModelConfigSchema,
  ModelIdParams,
  ModelSchema,
  ModelTestInput,
} from "../schemas/model-schemas.js";
import { CallResultSchema } from "../schemas/prompt-schemas.js";
import { noUsage } from "../store/usage-store.js";
import { optionalBody, optionalBodyMarker } from "./optional-body.js";

/** Model routes: list with availability and usage, configuration, test. */
export async function modelRoutes(scope: FastifyInstance, services: ApiServices): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ["models"];

  function model(id: string): ModelInfo {
    const info = services.catalog.get(id);
    if (!info) throw new NotFoundError(`model ${id} does not exist`);
    return info;
  }

  app.get(
    "/models",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        operationId: "listModels",
        summary: "List models with availability and usage statistics",
        querystring: PageQuery,
        response: { 200: PageOf(ModelSchema, "ModelPage"), ...problemResponses() },
      },
    },
    async (request, reply) => {
      const usage = await services.usage.byModel();
      const page = paginateList(services.catalog.list(), (m) => m.id, request.query);
      setNextLink(request, reply, page.nextCursor);
      return {
        items: page.rows.map((m) => ({ ...m, usage: usage.get(m.id) ?? noUsage })),
        next_cursor: page.nextCursor,
      };
    },
  );

  app.get(
    "/models/:id",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        operationId: "getModel",
        summary: "Read a model with availability and usage statistics",
        params: ModelIdParams,
        response: { 200: ModelSchema, ...problemResponses(404) },
      },
    },
    async (request) => {
      const info = model(request.params.id);
      const usage = await services.usage.byModel();
      return { ...info, usage: usage.get(info.id) ?? noUsage };
    },
  );

  app.get(
    "/models/:id/config",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        operationId: "getModelConfig",
        summary: "Read a model's configuration",
        params: ModelIdParams,
        response: { 200: ModelConfigSchema, ...problemResponses(404) },
      },
    },
    async (request) => services.invoker.config(model(request.params.id).id),
  );

  app.put(
    "/models/:id/config",
    {
      config: { access: "admin" },
      schema: {
        tags,
        operationId: "updateModelConfig",
        summary: "Change a model's configuration (fields left out keep their value)",
        params: ModelIdParams,
        body: ModelConfigInput,
        response: { 200: ModelConfigSchema, ...problemResponses(404) },
      },
    },
    async (request) => {
      const id = model(request.params.id).id;
      const next = { ...(await services.invoker.config(id)), ...request.body };
      if (next.fallback_model_id !== null) {
        if (next.fallback_model_id === id)
          throw new BadRequestError("a model cannot be its own fallback");
        if (!services.catalog.get(next.fallback_model_id)) {
          throw new BadRequestError(`fallback_model_id ${next.fallback_model_id} does not exist`);
        }
      }
      await services.settings.saveModel(id, next);
      return next;
    },
  );

  app.post(
    "/models/:id/test",
    {
      config: { access: "operator" },
      preValidation: optionalBody,
      schema: {
        tags,
        [optionalBodyMarker]: true,
        operationId: "testModel",
        summary: "Run a short prompt on a model",
        params: ModelIdParams,
        body: ModelTestInput,
        response: { 200: CallResultSchema, ...problemResponses(404) },
      },
    },
    async (request) => {
      const id = model(request.params.id).id;
      return services.invoker.invoke(
        id,
        request.body.prompt ?? "Reply with one short greeting.",
        "test",
      );
    },
  );
}
