import type { FastifyInstance, FastifyRequest } from "fastify";
import { urlForLog } from "./logger.js";
import { traceparentFromHeaders } from "./request-id.js";
import type { RpcRecord } from "./rpc-record.js";

const records = new WeakMap<object, RpcRecord>();

/** The `RpcRecord` of a request, created on first use; connect-fastify passes it to the call. */
export function rpcRecordOf(request: FastifyRequest): RpcRecord {
  let record = records.get(request.raw);
  if (!record) {
    const raw = request.raw;
    record = {
      service: "",
      method: "",
      protocol: "connect",
      code: undefined,
      bodyComplete: () => raw.complete,
      httpVersionMajor: raw.httpVersionMajor,
    };
    records.set(request.raw, record);
  }
  return record;
}

/** Codes that mean the server (or what it depends on) failed, logged at `warn`. */
const serverFaultCodes = new Set(["internal", "unknown", "data_loss", "unavailable"]);

/**
 * Installs the request id echo and the one-line-per-request log on the root of `app`:
 * every response carries `x-request-id` (and a valid incoming `traceparent` back), and every
 * finished request logs one line with its id and duration. RPCs log service, method, protocol
 * and the RPC code, which Fastify cannot see (gRPC errors travel in HTTP 200 responses).
 */
export function installRequestLog(app: FastifyInstance): void {
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    const traceparent = traceparentFromHeaders(request.headers);
    if (traceparent !== undefined) reply.header("traceparent", traceparent);
    done();
  });
  app.addHook("onResponse", (request, reply, done) => {
    const durationMs = Math.round(reply.elapsedTime * 1000) / 1000;
    const record = records.get(request.raw);
    if (record?.service) {
      const code = record.code ?? `http_${reply.statusCode}`;
      const level = serverFaultCodes.has(code) ? "warn" : "info";
      request.log[level](
        {
          service: record.service,
          method: record.method,
          protocol: record.protocol,
          code,
          httpStatus: reply.statusCode,
          httpVersion: request.raw.httpVersion,
          durationMs,
        },
        "rpc completed",
      );
    } else {
      request.log.info(
        {
          method: request.method,
          url: urlForLog(request.url),
          statusCode: reply.statusCode,
          durationMs,
        },
        "request completed",
      );
    }
    done();
  });
}
