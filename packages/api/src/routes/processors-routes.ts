import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import { Compile } from "typebox/compile";
import type { ApiServices } from "../api-services.js";
import { BadRequestError, NotFoundError } from "../errors.js";
import { paginateList, setNextLink } from "../pagination.js";
import { PageOf, PageQuery, problemResponses } from "../schemas/common.js";
import {
  ConsoleConfigSchema,
  FileConfigSchema,
  ProcessorSchema,
  ProcessorTypeParams,
  WebhookConfigSchema,
} from "../schemas/processor-schemas.js";

const inputs = {
  console: Type.Partial(ConsoleConfigSchema, { additionalProperties: false }),
  file: Type.Partial(FileConfigSchema, { additionalProperties: false }),
  webhook: Type.Partial(WebhookConfigSchema, { additionalProperties: false }),
};
const checks = {
  console: Compile(inputs.console),
  file: Compile(inputs.file),
  webhook: Compile(inputs.webhook),
};

/** Processor routes: list, read and change configuration by type. */
export async function processorRoutes(
  scope: FastifyInstance,
  services: ApiServices,
): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ["processors"];

  app.get(
    "/processors",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "List processors with their configuration",
        querystring: PageQuery,
        response: { 200: PageOf(ProcessorSchema, "ProcessorPage"), ...problemResponses() },
      },
    },
    async (request, reply) => {
      const page = paginateList(await services.processors.list(), (p) => p.type, request.query);
      setNextLink(request, reply, page.nextCursor);
      return { items: page.rows, next_cursor: page.nextCursor };
    },
  );

  app.get(
    "/processors/:type/config",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "Read a processor's configuration (the webhook secret shows only as secret_set)",
        params: ProcessorTypeParams,
        response: { 200: ProcessorSchema, ...problemResponses(404) },
      },
    },
    async (request) => services.processors.get(request.params.type),
  );

  app.put(
    "/processors/:type/config",
    {
      config: { access: "admin" },
      schema: {
        tags,
        summary: "Change a processor's configuration (fields left out keep their value)",
        params: ProcessorTypeParams,
        body: Type.Union([inputs.console, inputs.file, inputs.webhook], {
          title: "ProcessorConfigInput",
        }),
        response: { 200: ProcessorSchema, ...problemResponses(404) },
      },
    },
    async (request) => {
      const type = request.params.type;
      if (type !== "console" && type !== "file" && type !== "webhook") {
        throw new NotFoundError(`processor ${type} does not exist; use console, file or webhook`);
      }
      const check = checks[type];
      if (!check.Check(request.body)) {
        const issues = [...check.Errors(request.body)].map(
          (e) =>
            `${e.instancePath || "/"} ${e.message}${(e.params as { additionalProperties?: string[] })?.additionalProperties ? ` (${(e.params as { additionalProperties: string[] }).additionalProperties.join(", ")})` : ""}`,
        );
        throw new BadRequestError(`invalid ${type} configuration: ${issues.join("; ")}`);
      }
      return services.processors.configure(type, request.body as Record<string, unknown>);
    },
  );
}
