import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import type { ApiServices } from "../api-services.js";
import { BadRequestError, ConflictError } from "../errors.js";
import { offlineModelId } from "../models/offline-provider.js";
import { setNextLink } from "../pagination.js";
import {
  checkPromptTemplate,
  renderPromptTemplate,
  resolveVariables,
} from "../prompts/prompt-template.js";
import { IdParams, PageOf, problemResponses } from "../schemas/common.js";
import {
  PromptInput,
  PromptListQuery,
  PromptSchema,
  PromptTestInput,
  PromptTestResult,
} from "../schemas/prompt-schemas.js";
import { optionalBody, optionalBodyMarker } from "./optional-body.js";

function checkInput(input: PromptInput): void {
  const names = (input.variables ?? []).map((v) => v.name);
  const repeated = names.filter((n, i) => names.indexOf(n) !== i);
  if (repeated.length > 0)
    throw new BadRequestError(`variables declared twice: ${[...new Set(repeated)].join(", ")}`);
  checkPromptTemplate(input.template, input.variables ?? []);
}

/** Prompt routes: CRUD, list by category, and test rendering plus a model call. */
export async function promptRoutes(scope: FastifyInstance, services: ApiServices): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ["prompts"];

  app.get(
    "/prompts",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        operationId: "listPrompts",
        summary: "List prompts, newest first",
        querystring: PromptListQuery,
        response: { 200: PageOf(PromptSchema, "PromptPage"), ...problemResponses() },
      },
    },
    async (request, reply) => {
      const page = await services.prompts.list(request.query);
      setNextLink(request, reply, page.nextCursor);
      return { items: page.items, next_cursor: page.nextCursor };
    },
  );

  app.post(
    "/prompts",
    {
      config: { access: "admin" },
      schema: {
        tags,
        operationId: "createPrompt",
        summary: "Create a prompt",
        body: PromptInput,
        response: { 201: PromptSchema, ...problemResponses(409) },
      },
    },
    async (request, reply) => {
      checkInput(request.body);
      const prompt = await services.prompts.create(request.body);
      reply.code(201).header("location", `${request.url.split("?")[0]}/${prompt.id}`);
      return prompt;
    },
  );

  app.get(
    "/prompts/:id",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        operationId: "getPrompt",
        summary: "Read a prompt",
        params: IdParams,
        response: { 200: PromptSchema, ...problemResponses(404) },
      },
    },
    async (request) => services.prompts.get(request.params.id),
  );

  app.put(
    "/prompts/:id",
    {
      config: { access: "admin" },
      schema: {
        tags,
        operationId: "replacePrompt",
        summary: "Replace a prompt",
        description:
          "Refused with 409 when a task using the prompt would lack a required variable.",
        params: IdParams,
        body: PromptInput,
        response: { 200: PromptSchema, ...problemResponses(404, 409) },
      },
    },
    async (request) => {
      checkInput(request.body);
      await services.prompts.get(request.params.id);
      const broken: string[] = [];
      for (const task of await services.tasks.byPrompt(request.params.id)) {
        try {
          resolveVariables(request.body.variables ?? [], task.variables);
        } catch (error) {
          broken.push(`"${task.name}" (${(error as Error).message})`);
        }
      }
      if (broken.length > 0)
        throw new ConflictError(`the change would break tasks: ${broken.join("; ")}`);
      return services.prompts.update(request.params.id, request.body);
    },
  );

  app.delete(
    "/prompts/:id",
    {
      config: { access: "admin" },
      schema: {
        tags,
        operationId: "deletePrompt",
        summary: "Delete a prompt (409 while a task uses it)",
        params: IdParams,
        response: { 204: Type.Null(), ...problemResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await services.prompts.delete(request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/prompts/:id/test",
    {
      config: { access: "operator" },
      preValidation: optionalBody,
      schema: {
        tags,
        [optionalBodyMarker]: true,
        operationId: "testPrompt",
        summary: "Render a prompt with variables and run it on a model, without recording a run",
        params: IdParams,
        body: PromptTestInput,
        response: { 200: PromptTestResult, ...problemResponses(404) },
      },
    },
    async (request) => {
      const prompt = await services.prompts.get(request.params.id);
      const modelId = request.body.model_id ?? offlineModelId;
      if (!services.catalog.get(modelId))
        throw new BadRequestError(`model ${modelId} does not exist`);
      const { rendered, variables } = renderPromptTemplate(
        prompt.template,
        prompt.variables,
        request.body.variables ?? {},
      );
      const result = await services.invoker.invoke(modelId, rendered, "test");
      return { rendered_prompt: rendered, variables, result };
    },
  );
}
