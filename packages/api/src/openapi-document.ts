import { isDeepStrictEqual } from "node:util";
import type { SwaggerTransform, SwaggerTransformObject } from "@fastify/swagger";
import type { Access } from "./auth/jwt-auth.js";
import { roles } from "./auth/roles.js";
import { problemContentType } from "./problem.js";
import { optionalBodyMarker } from "./routes/optional-body.js";
import { ProblemSchema } from "./schemas/common.js";

type Json = Record<string, unknown>;

/** The roles that satisfy `access`, least privileged first. */
function rolesFor(access: Access): string[] {
  if (access === "public") return [];
  return roles.slice(roles.indexOf(access));
}

/**
 * The security requirement of a route: none for public routes; otherwise a bearer token (or an
 * OAuth token) carrying any role at least as privileged as the route needs. OpenAPI 3.1 lets
 * the requirement of a non-OAuth scheme name roles, so both schemes list them.
 */
export function securityFor(access: Access): Array<Record<string, string[]>> {
  return rolesFor(access).flatMap(
    (role): Array<Record<string, string[]>> => [{ bearerAuth: [role] }, { oauth2: [role] }],
  );
}

/** The `transform` of `@fastify/swagger`: adds each route's security, role and a sentence on it. */
export const describeRoute: SwaggerTransform = (input) => {
  const schema = (input.schema ?? {}) as Json;
  const access = ((input.route.config ?? {}) as { access?: Access }).access ?? "admin";
  const needs =
    access === "public"
      ? "Public: no token needed."
      : `Requires the ${access} role${access === "admin" ? "" : " or higher"} (roles: ${rolesFor(access).join(", ")}).`;
  const description = typeof schema.description === "string" ? `${schema.description}\n\n` : "";
  return {
    url: input.url,
    schema: {
      ...schema,
      description: `${description}${needs}`,
      security: securityFor(access),
      "x-costplugin-role": access,
    },
  };
};

const descriptions: Readonly<Record<string, string>> = {
  "200": "OK",
  "201": "Created",
  "204": "No content",
  "400": "Invalid request: malformed, failing validation, or refused by a rule",
  "401": "Missing or invalid bearer token",
  "403": "The token's roles do not allow this operation",
  "404": "No such resource",
  "409": "Conflicts with the current state",
  "413": "Request body above the limit",
  "415": "Request body is not JSON",
  "429": "Rate limit reached; retry after `Retry-After` seconds",
  "500": "Internal error; the request id identifies the log entry",
};

const problemRef = { $ref: "#/components/schemas/Problem" };

const headers: Readonly<Record<string, Json>> = {
  "RateLimit-Limit": {
    description: "Requests allowed in the current window.",
    schema: { type: "integer" },
  },
  "RateLimit-Remaining": {
    description: "Requests left in the current window.",
    schema: { type: "integer" },
  },
  "RateLimit-Reset": {
    description: "Seconds until the window resets.",
    schema: { type: "integer" },
  },
  "Retry-After": {
    description: "Seconds to wait before retrying.",
    schema: { type: "integer" },
  },
  Link: {
    description: 'The next page as `<url>; rel="next"`; absent on the last page.',
    schema: { type: "string" },
  },
  Location: { description: "Where the created resource is.", schema: { type: "string" } },
  "WWW-Authenticate": {
    description: "The Bearer challenge (RFC 6750).",
    schema: { type: "string" },
  },
};

function headerRefs(...names: string[]): Json {
  return Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
}

// Keys whose values are data, not schemas: never hoisted from.
const dataKeys = new Set(["default", "const", "enum", "example", "examples"]);

/** Moves every schema with a `title` into `components.schemas`, leaving a `$ref`. */
function hoist(node: unknown, components: Json): unknown {
  if (Array.isArray(node)) return node.map((item) => hoist(item, components));
  if (node === null || typeof node !== "object") return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    out[key] = dataKeys.has(key) ? value : hoist(value, components);
  }
  const title = out.title;
  if (typeof title === "string" && /^[A-Za-z][A-Za-z0-9]*$/.test(title) && "type" in out) {
    const known = components[title];
    if (known === undefined || isDeepStrictEqual(known, out)) {
      components[title] = out;
      return { $ref: `#/components/schemas/${title}` };
    }
  }
  return out;
}

/**
 * The `transformObject` of `@fastify/swagger`: states what the routes cannot (problem documents
 * as `application/problem+json`, the 413/415 of every body, the headers of pages, creations,
 * challenges and rate limits, readable response descriptions) and names every titled schema
 * in `components.schemas`.
 */
export const finishDocument: SwaggerTransformObject = (input) => {
  const source = "openapiObject" in input ? input.openapiObject : input.swaggerObject;
  const doc = structuredClone(source) as Json;
  const components = (doc.components ?? {}) as Json;
  const schemas: Json = { ...((components.schemas as Json | undefined) ?? {}) };
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Json>>;
  for (const operations of Object.values(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (method === "parameters") continue;
      const responses = (operation.responses ?? {}) as Record<string, Json>;
      if (operation[optionalBodyMarker] === true) {
        (operation.requestBody as Json).required = false;
        delete operation[optionalBodyMarker];
      }
      if (operation.requestBody !== undefined) {
        responses["413"] ??= { content: { "application/json": { schema: problemRef } } };
        responses["415"] ??= { content: { "application/json": { schema: problemRef } } };
      }
      const paged = ((operation.parameters ?? []) as Json[]).some(
        (p) => p.in === "query" && p.name === "cursor",
      );
      const limited = Array.isArray(operation.security);
      for (const [code, response] of Object.entries(responses)) {
        if (response.description === undefined || response.description === "Default Response") {
          response.description = descriptions[code] ?? "Response";
        }
        const status = Number(code);
        const content = response.content as Record<string, Json> | undefined;
        if (status >= 400 && content?.["application/json"] !== undefined) {
          response.content = { [problemContentType]: content["application/json"] };
        }
        const names: string[] = [];
        if (status === 201) names.push("Location");
        if (status === 200 && paged) names.push("Link");
        if (status === 401) names.push("WWW-Authenticate");
        if (limited && (status < 300 || status === 429)) {
          names.push("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset");
        }
        if (status === 429) names.push("Retry-After");
        if (names.length > 0) {
          response.headers = { ...((response.headers as Json) ?? {}), ...headerRefs(...names) };
        }
      }
      operation.responses = Object.fromEntries(
        Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)),
      );
    }
  }
  doc.paths = hoist(paths, schemas);
  schemas.Problem ??= JSON.parse(JSON.stringify(ProblemSchema));
  doc.components = { ...components, schemas, headers: { ...headers } };
  return doc as ReturnType<SwaggerTransformObject>;
};
