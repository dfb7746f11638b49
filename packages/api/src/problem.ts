import { STATUS_CODES } from "node:http";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { problemExtensionsOf } from "./errors.js";

/** An RFC 9457 problem document as the API renders it. */
export interface Problem {
  /** `urn:costplugin:problem:<name>`, stable per kind of error. */
  readonly type: string;
  /** The HTTP reason phrase of `status`. */
  readonly title: string;
  /** The HTTP status code. */
  readonly status: number;
  /** A human-readable explanation of this occurrence; never a stack trace or a secret. */
  readonly detail: string;
  /** The request path. */
  readonly instance: string;
  /** The request id, to find the matching log line. */
  readonly request_id: string;
  /** Further members such as `errors` (validation) or `missing_variables`. */
  readonly [extension: string]: unknown;
}

/** The media type of problem documents. */
export const problemContentType = "application/problem+json";

const typeNames: Readonly<Record<number, string>> = {
  400: "bad-request",
  401: "unauthorized",
  403: "forbidden",
  404: "not-found",
  405: "method-not-allowed",
  406: "not-acceptable",
  409: "conflict",
  413: "payload-too-large",
  415: "unsupported-media-type",
  429: "rate-limited",
  500: "internal",
  503: "unavailable",
};

function typeFor(status: number, validation: boolean): string {
  const name = validation ? "validation" : (typeNames[status] ?? `http-${status}`);
  return `urn:costplugin:problem:${name}`;
}

interface ValidationIssue {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** One validation failure: where, which field, what is wrong. */
export interface ValidationError {
  readonly in: string;
  readonly path: string;
  readonly message: string;
}

function names(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return typeof value === "string" ? [value] : [];
}

const unionSummary = /^must match (a|exactly one) schema in (anyOf|oneOf)$/;

function validationErrors(error: FastifyError): ValidationError[] {
  const where =
    (error as FastifyError & { validationContext?: string }).validationContext ?? "body";
  const out: ValidationError[] = [];
  for (const issue of error.validation as unknown as ValidationIssue[]) {
    const base = issue.instancePath ?? "";
    const unknown = names(issue.params?.additionalProperties ?? issue.params?.additionalProperty);
    const required = names(issue.params?.requiredProperties ?? issue.params?.missingProperty);
    if (unknown.length > 0) {
      for (const n of unknown)
        out.push({ in: where, path: `${base}/${n}`, message: "unknown field" });
    } else if (required.length > 0) {
      for (const n of required)
        out.push({ in: where, path: `${base}/${n}`, message: "is required" });
    } else if (issue.message !== "schema is false") {
      out.push({
        in: where,
        path: base === "" ? "/" : base,
        message: issue.message ?? "is invalid",
      });
    }
  }
  const seen = new Set<string>();
  const unique = out.filter((e) => {
    const key = `${e.in}${e.path}${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  // A value failing a union (`T | null`) yields one message per branch and one for the union;
  // the branch that says what is wrong is enough.
  const said = (e: ValidationError) =>
    unique.some(
      (other) =>
        other !== e &&
        other.in === e.in &&
        !unionSummary.test(other.message) &&
        other.message !== "must be null" &&
        (other.path === e.path || other.path.startsWith(e.path === "/" ? "/" : `${e.path}/`)),
    );
  return unique.filter(
    (e) => !((unionSummary.test(e.message) || e.message === "must be null") && said(e)),
  );
}

/** Builds the problem document for `error` (a 500 says nothing about the cause). */
export function problemFromError(error: FastifyError, request: FastifyRequest): Problem {
  const base = { instance: request.url.split("?")[0] ?? request.url, request_id: request.id };
  if (error.validation) {
    const errors = validationErrors(error);
    return {
      type: typeFor(400, true),
      title: STATUS_CODES[400] ?? "Bad Request",
      status: 400,
      detail: `request validation failed: ${errors.map((e) => `${e.in}${e.path} ${e.message}`).join("; ")}`,
      ...base,
      errors,
    };
  }
  const status = error.statusCode ?? 500;
  if (status < 400 || status >= 500 || typeof error.code !== "string") {
    return {
      type: typeFor(500, false),
      title: STATUS_CODES[500] ?? "Internal Server Error",
      status: 500,
      detail: "internal error; the request id identifies the log entry",
      ...base,
    };
  }
  let detail = error.message;
  if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
    const sent = String(request.headers["content-type"] ?? "none").slice(0, 100);
    detail = `content-type ${sent} is not accepted here; send application/json`;
  }
  return {
    type: typeFor(status, false),
    title: STATUS_CODES[status] ?? "Error",
    status,
    detail,
    ...base,
    ...problemExtensionsOf(error),
  };
}

/** Sends `problem` with its status and the problem media type. */
export function sendProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  return reply.code(problem.status).type(problemContentType).send(JSON.stringify(problem));
}
