import { createHash } from "node:crypto";
import fastifyJwt, { type TokenOrHeader } from "@fastify/jwt";
import type { Algorithm } from "fast-jwt";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AuthOptions } from "../api-options.js";
import { ForbiddenError, UnauthorizedError } from "../errors.js";
import { createJwksKeySource } from "./jwks-key-source.js";
import { type Role, roleSatisfies, rolesFromClaim } from "./roles.js";

/** Who may call a route: a minimum role, or `public` for no token at all. */
export type Access = Role | "public";

/** The verified caller of a request. */
export interface Principal {
  /** The `sub` claim. */
  readonly subject: string;
  /** Roles from the `roles` claim. */
  readonly roles: readonly Role[];
  /** The OAuth client the token was issued to, if any. */
  readonly clientId: string | undefined;
  /** SHA-256 of the raw token (hex): the rate-limit key; the token itself is never kept. */
  readonly tokenHash: string;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** Minimum role for the route (the one authorization mechanism of the API). */
    access?: Access;
  }
  interface FastifyRequest {
    /** The verified caller; null on public routes. */
    principal: Principal | null;
    /** Why the caller may not use the route (401 or 403), raised by `enforceAccess`. */
    accessDenied: Error | null;
  }
}

/** The algorithms accepted for each kind of key; `none` is never among them. */
export const hmacAlgorithms = ["HS256"] as const;
/** Asymmetric algorithms accepted with a public key or JWKS. */
export const asymmetricAlgorithms = ["RS256", "ES256"] as const;

/** Options of `registerAuth`. */
export interface RegisterAuthOptions {
  readonly auth: AuthOptions;
  /** False when an OAuth client has been deleted since it obtained its token. */
  readonly isClientActive: (clientId: string) => Promise<boolean>;
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== "string") return undefined;
  const match = /^Bearer ([A-Za-z0-9\-_.~+/]+=*)$/i.exec(header.trim());
  return match?.[1];
}

function unauthorized(message: string): Error {
  return new UnauthorizedError(message);
}

function explain(error: unknown): string {
  const code = (error as { code?: string }).code ?? "";
  if (code === "FST_JWT_AUTHORIZATION_TOKEN_EXPIRED") return "token expired";
  if (code === "FST_JWT_AUTHORIZATION_TOKEN_UNTRUSTED") return "token is not trusted";
  const message = (error as Error).message ?? "";
  if (/\bkid\b/.test(message)) return "token names no key (kid) of the identity provider";
  if (/signature/i.test(message)) return "token signature is invalid";
  if (/\baud\b|audience/i.test(message)) return "token audience is not accepted";
  if (/\biss\b|issuer/i.test(message)) return "token issuer is not accepted";
  if (/algorithm|alg/i.test(message)) return "token algorithm is not accepted";
  if (/not (yet )?active|nbf/i.test(message)) return "token is not valid yet";
  if (/malformed|decode|invalid/i.test(message)) return "token is malformed or invalid";
  return "token could not be verified";
}

/**
 * Registers `@fastify/jwt` and the one authorization hook of the scope. Keys are chosen by the
 * token's `alg`: HS256 uses only the shared secret; RS256/ES256 use only the public key or the
 * JWKS key named by `kid`, so a token cannot pass a public key off as an HMAC secret, and `none`
 * is refused. Every route declares `config.access`; a route without it requires admin. The
 * verdict is enforced by `enforceAccess`, which the caller installs after its rate limiter.
 */
export async function registerAuth(
  scope: FastifyInstance,
  options: RegisterAuthOptions,
): Promise<void> {
  const { auth } = options;
  const algorithms: Algorithm[] = [];
  if (auth.secret) algorithms.push(...hmacAlgorithms);
  if (auth.publicKey || auth.jwksUrl) algorithms.push(...asymmetricAlgorithms);
  if (algorithms.length === 0)
    throw new Error("no JWT signing configuration: set a secret, a public key or a JWKS URL");
  const jwks = auth.jwksUrl
    ? createJwksKeySource({
        url: auth.jwksUrl,
        ttlMs: auth.jwksCacheTtlMs,
        missCooldownMs: auth.jwksMissCooldownMs,
      })
    : undefined;

  await scope.register(fastifyJwt, {
    secret: async (_request: FastifyRequest, token: TokenOrHeader): Promise<string> => {
      const header = "header" in token ? token.header : token;
      const alg = header.alg ?? "";
      if (alg === "HS256" && auth.secret) return auth.secret;
      if ((alg === "RS256" || alg === "ES256") && auth.publicKey) return auth.publicKey;
      if ((alg === "RS256" || alg === "ES256") && jwks) return jwks.key(header.kid, alg);
      throw new Error("token algorithm is not accepted");
    },
    decode: { complete: true },
    verify: {
      algorithms,
      ...(auth.issuer ? { allowedIss: auth.issuer } : {}),
      ...(auth.audience ? { allowedAud: auth.audience } : {}),
      clockTolerance: auth.clockToleranceMs ?? 30_000,
      requiredClaims: [
        "exp",
        "sub",
        ...(auth.issuer ? ["iss"] : []),
        ...(auth.audience ? ["aud"] : []),
      ],
      extractToken: bearerToken,
    },
  });

  scope.decorateRequest("principal", null);
  scope.decorateRequest("accessDenied", null);
  // Verification only records its verdict: `enforceAccess` raises it once the rate limiter has
  // counted the request, so callers with bad tokens are limited (by address) like everyone else.
  scope.addHook("onRequest", async (request, reply) => {
    if (request.is404) return;
    const access = request.routeOptions.config.access ?? "admin";
    if (access === "public") return;
    const token = bearerToken(request);
    if (token === undefined) {
      reply.header("www-authenticate", 'Bearer realm="costplugin"');
      request.accessDenied = unauthorized("a bearer token is required");
      return;
    }
    let payload: Record<string, unknown>;
    try {
      payload = await request.jwtVerify<Record<string, unknown>>();
    } catch (error) {
      reply.header("www-authenticate", 'Bearer realm="costplugin", error="invalid_token"');
      request.log.info({ reason: (error as Error).message }, "bearer token refused");
      request.accessDenied = unauthorized(explain(error));
      return;
    }
    const clientId = typeof payload.client_id === "string" ? payload.client_id : undefined;
    if (clientId !== undefined && !(await options.isClientActive(clientId))) {
      reply.header("www-authenticate", 'Bearer realm="costplugin", error="invalid_token"');
      request.accessDenied = unauthorized("the client of this token has been deleted");
      return;
    }
    const principal: Principal = {
      subject: String(payload.sub),
      roles: rolesFromClaim(payload.roles),
      clientId,
      tokenHash: createHash("sha256").update(token).digest("hex"),
    };
    request.principal = principal;
    if (!roleSatisfies(principal.roles, access)) {
      request.accessDenied = new ForbiddenError(`this operation requires the ${access} role`);
    }
  });
}

/**
 * The route-level `onRequest` hook that refuses a request whose caller `registerAuth` found
 * unauthenticated (401) or without the route's role (403). It must run after the rate limiter.
 */
export async function enforceAccess(request: FastifyRequest): Promise<void> {
  if (request.accessDenied) throw request.accessDenied;
}
