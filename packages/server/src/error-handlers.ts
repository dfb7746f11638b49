import type { FastifyError, FastifyInstance } from "fastify";
import { acceptedRpcContentTypes, unsupportedMediaTypeMessage } from "./content-types.js";

/** `/package.Service/Method`, the path of every RPC of every protocol. */
const rpcPath = /^\/[A-Za-z_][\w.]*\.[A-Za-z_]\w*\/[A-Za-z_]\w*(?:\?|$)/;

/**
 * The root's not-found and error handlers: unknown paths answer a JSON 404; a content type
 * nobody parses answers 415 naming what is accepted; other client errors keep their status and
 * message; server errors are logged and answered without their message, so nothing leaks.
 * Extensions may install their own handlers in their scope.
 */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send({
      error: "Not Found",
      message: `no route for ${request.method} ${request.url.split("?")[0]}`,
      statusCode: 404,
    });
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE" && rpcPath.test(request.url)) {
      return reply
        .code(415)
        .header("accept-post", acceptedRpcContentTypes.join(", "))
        .send({
          error: "Unsupported Media Type",
          message: unsupportedMediaTypeMessage(request.headers["content-type"]),
          statusCode: 415,
        });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, "request failed");
      return reply
        .code(status)
        .send({ error: "Internal Server Error", message: "internal error", statusCode: status });
    }
    return reply
      .code(status)
      .send({ error: error.name, message: error.message, statusCode: status });
  });
}
