import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { Type } from "typebox";
import type { AuthOptions } from "../api-options.js";
import type { ApiServices } from "../api-services.js";
import { signAccessToken } from "../auth/mint-token.js";
import { isRole, type Role } from "../auth/roles.js";
import { BadRequestError, UnauthorizedError, withProblemExtensions } from "../errors.js";
import { setNextLink } from "../pagination.js";
import { IdParams, PageOf, PageQuery, problemResponses } from "../schemas/common.js";
import {
  OAuthClientCreated,
  OAuthClientInput,
  OAuthClientSchema,
  OAuthTokenRequest,
  OAuthTokenResponse,
} from "../schemas/oauth-schemas.js";

function oauthError(status: 400 | 401, error: string, description: string): Error {
  const e = status === 400 ? new BadRequestError(description) : new UnauthorizedError(description);
  return withProblemExtensions(e, { error, error_description: description });
}

function basicCredentials(request: FastifyRequest): { id: string; secret: string } | undefined {
  const header = request.headers.authorization;
  if (typeof header !== "string" || !/^Basic /i.test(header)) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  try {
    return {
      id: decodeURIComponent(decoded.slice(0, colon)),
      secret: decodeURIComponent(decoded.slice(colon + 1)),
    };
  } catch {
    return undefined;
  }
}

/**
 * OAuth 2.0 client-credentials (RFC 6749 section 4.4): admins create clients with the roles
 * they may request as scopes; `POST /oauth/token` exchanges client id and secret (HTTP Basic or
 * form fields) for a short-lived HS256 access token carrying the granted roles.
 */
export async function oauthRoutes(
  scope: FastifyInstance,
  services: ApiServices,
  auth: AuthOptions,
): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ["oauth"];
  const secret = auth.secret;

  // The form parser lives in a child context: only the token endpoint takes forms.
  await scope.register(async (child) => {
    const form = child.withTypeProvider<TypeBoxTypeProvider>();
    form.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string" },
      (_request, body, done) => {
        const params = new URLSearchParams(body as string);
        const out: Record<string, string> = {};
        for (const [key, value] of params) {
          if (Object.hasOwn(out, key)) {
            done(oauthError(400, "invalid_request", `parameter ${key} is repeated`), undefined);
            return;
          }
          out[key] = value;
        }
        done(null, out);
      },
    );

    form.post(
      "/oauth/token",
      {
        config: { access: "public" },
        schema: {
          tags,
          operationId: "createToken",
          summary: "Exchange client credentials for an access token",
          consumes: ["application/x-www-form-urlencoded", "application/json"],
          description:
            "Form-encoded (or JSON) `grant_type=client_credentials`, optional space-separated `scope` (roles), client credentials in HTTP Basic or in `client_id`/`client_secret`.",
          security: [],
          body: OAuthTokenRequest,
          response: {
            200: OAuthTokenResponse,
            400: problemResponses()[400],
            401: problemResponses()[401],
          },
        },
      },
      async (request, reply) => {
        if (!secret)
          throw oauthError(
            400,
            "unsupported_grant_type",
            "token issuance needs COSTPLUGIN_JWT_SECRET",
          );
        const body = request.body;
        if (body.grant_type !== "client_credentials") {
          throw oauthError(
            400,
            "unsupported_grant_type",
            "only grant_type=client_credentials is supported",
          );
        }
        const basic = basicCredentials(request);
        if (basic && (body.client_id !== undefined || body.client_secret !== undefined)) {
          throw oauthError(400, "invalid_request", "use one client authentication method, not two");
        }
        const id = basic?.id ?? body.client_id;
        const clientSecret = basic?.secret ?? body.client_secret;
        if (!id || !clientSecret) {
          reply.header("www-authenticate", 'Basic realm="costplugin"');
          throw oauthError(401, "invalid_client", "client authentication is required");
        }
        const client = await services.clients.authenticate(id, clientSecret);
        if (!client) {
          reply.header("www-authenticate", 'Basic realm="costplugin"');
          throw oauthError(401, "invalid_client", "client authentication failed");
        }
        let granted: Role[] = client.scopes;
        if (body.scope !== undefined && body.scope.trim() !== "") {
          const asked = [...new Set(body.scope.trim().split(/ +/))];
          const refused = asked.filter((s) => !isRole(s) || !client.scopes.includes(s));
          if (refused.length > 0)
            throw oauthError(400, "invalid_scope", `scope not allowed: ${refused.join(" ")}`);
          granted = asked as Role[];
        }
        const ttl = auth.oauthTokenTtlSeconds ?? 3600;
        const scopeText = granted.join(" ");
        reply.header("cache-control", "no-store").header("pragma", "no-cache");
        return {
          access_token: signAccessToken({
            secret,
            sub: client.client_id,
            roles: granted,
            ttlSeconds: ttl,
            issuer: auth.issuer,
            audience: auth.audience,
            claims: { client_id: client.client_id, scope: scopeText },
          }),
          token_type: "Bearer" as const,
          expires_in: ttl,
          scope: scopeText,
        };
      },
    );
  });

  app.get(
    "/oauth/clients",
    {
      config: { access: "admin" },
      schema: {
        tags,
        operationId: "listOAuthClients",
        summary: "List OAuth clients",
        querystring: PageQuery,
        response: { 200: PageOf(OAuthClientSchema, "OAuthClientPage"), ...problemResponses() },
      },
    },
    async (request, reply) => {
      const page = await services.clients.list(request.query);
      setNextLink(request, reply, page.nextCursor);
      return { items: page.items, next_cursor: page.nextCursor };
    },
  );

  app.post(
    "/oauth/clients",
    {
      config: { access: "admin" },
      schema: {
        tags,
        operationId: "createOAuthClient",
        summary: "Create an OAuth client; the secret is shown once",
        body: OAuthClientInput,
        response: { 201: OAuthClientCreated, ...problemResponses() },
      },
    },
    async (request, reply) => {
      const created = await services.clients.create(request.body.name, request.body.scopes);
      reply
        .code(201)
        .header("location", `${request.url.split("?")[0]}/${created.client_id}`)
        .header("cache-control", "no-store");
      return created;
    },
  );

  app.get(
    "/oauth/clients/:id",
    {
      config: { access: "admin" },
      schema: {
        tags,
        operationId: "getOAuthClient",
        summary: "Read an OAuth client (never its secret)",
        params: IdParams,
        response: { 200: OAuthClientSchema, ...problemResponses(404) },
      },
    },
    async (request) => services.clients.get(request.params.id),
  );

  app.delete(
    "/oauth/clients/:id",
    {
      config: { access: "admin" },
      schema: {
        tags,
        operationId: "deleteOAuthClient",
        summary: "Delete an OAuth client; its tokens stop working at once",
        params: IdParams,
        response: { 204: Type.Null(), ...problemResponses(404) },
      },
    },
    async (request, reply) => {
      await services.clients.delete(request.params.id);
      return reply.code(204).send(null);
    },
  );
}
