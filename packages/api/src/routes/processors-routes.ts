import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { Type } from "typebox";
import type { ApiServices } from "../api-services.js";
import { roleSatisfies } from "../auth/roles.js";
import { paginateList, setNextLink } from "../pagination.js";
import type { ProcessorView } from "../processors/processor-registry.js";
import { PageOf, PageQuery, problemResponses } from "../schemas/common.js";
import {
  ConsoleConfigSchema,
  FileConfigSchema,
  ProcessorSchema,
  ProcessorTypeParams,
  WebhookConfigSchema,
} from "../schemas/processor-schemas.js";

const inputs = {
  console: Type.Partial(ConsoleConfigSchema, {
    additionalProperties: false,
    title: "ConsoleProcessorConfigInput",
  }),
  file: Type.Partial(FileConfigSchema, {
    additionalProperties: false,
    title: "FileProcessorConfigInput",
  }),
  webhook: Type.Partial(WebhookConfigSchema, {
    additionalProperties: false,
    title: "WebhookProcessorConfigInput",
  }),
};

/**
 * What a caller may see of a processor: the webhook URL is shown whole to admins only. Such
 * URLs often carry their own credential in the path or query (chat webhooks do), so other
 * roles see its origin only.
 */
function shownTo(request: FastifyRequest, view: ProcessorView): ProcessorView {
  const url = view.config.url;
  if (typeof url !== "string" || roleSatisfies(request.principal?.roles ?? [], "admin")) {
    return view;
  }
  return { ...view, config: { ...view.config, url: `${new URL(url).origin}/…` } };
}

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
        operationId: "listProcessors",
        summary: "List processors with their configuration",
        querystring: PageQuery,
        response: { 200: PageOf(ProcessorSchema, "ProcessorPage"), ...problemResponses() },
      },
    },
    async (request, reply) => {
      const page = paginateList(await services.processors.list(), (p) => p.type, request.query);
      setNextLink(request, reply, page.nextCursor);
      return { items: page.rows.map((p) => shownTo(request, p)), next_cursor: page.nextCursor };
    },
  );

  app.get(
    "/processors/:type/config",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        operationId: "getProcessorConfig",
        summary: "Read a processor's configuration",
        description:
          "The webhook secret shows only as `secret_set`; the webhook URL shows whole to admins and as its origin to other roles.",
        params: ProcessorTypeParams,
        response: { 200: ProcessorSchema, ...problemResponses(404) },
      },
    },
    async (request) => shownTo(request, await services.processors.get(request.params.type)),
  );

  for (const type of ["console", "file", "webhook"] as const) {
    // One route per type, so validation and the document name that type's own fields.
    app.put(
      `/processors/${type}/config`,
      {
        config: { access: "admin" },
        schema: {
          tags,
          operationId: `update${type[0]?.toUpperCase()}${type.slice(1)}ProcessorConfig`,
          summary: `Change the ${type} processor's configuration (fields left out keep their value)`,
          body: inputs[type],
          response: { 200: ProcessorSchema, ...problemResponses() },
        },
      },
      async (request) =>
        services.processors.configure(type, request.body as Record<string, unknown>),
    );
  }
}
