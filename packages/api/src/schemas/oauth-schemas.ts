import { Type } from "typebox";
import { Timestamp } from "./common.js";

const RoleSchema = Type.Union([
  Type.Literal("viewer"),
  Type.Literal("operator"),
  Type.Literal("admin"),
]);

/** Body of `POST /oauth/clients`. */
export const OAuthClientInput = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: "^[^\\u0000-\\u001f\\u007f]+$",
      description: "No control characters.",
    }),
    scopes: Type.Array(RoleSchema, {
      minItems: 1,
      uniqueItems: true,
      description: "Roles the client may request as scopes.",
    }),
  },
  { additionalProperties: false },
);

/** A client as listed (never with its secret). */
export const OAuthClientSchema = Type.Object(
  {
    client_id: Type.String(),
    name: Type.String(),
    scopes: Type.Array(RoleSchema),
    created_at: Timestamp,
  },
  { additionalProperties: false, title: "OAuthClient" },
);

/** Answer of `POST /oauth/clients`: the only time the secret is shown. */
export const OAuthClientCreated = Type.Object(
  {
    client_id: Type.String(),
    client_secret: Type.String(),
    name: Type.String(),
    scopes: Type.Array(RoleSchema),
    created_at: Timestamp,
  },
  { additionalProperties: false, title: "OAuthClientCreated" },
);

/** Body of `POST /oauth/token` (form-encoded or JSON), RFC 6749 section 4.4. */
export const OAuthTokenRequest = Type.Object(
  {
    grant_type: Type.String({ maxLength: 100 }),
    scope: Type.Optional(Type.String({ maxLength: 200 })),
    client_id: Type.Optional(Type.String({ maxLength: 100 })),
    client_secret: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

/** Answer of `POST /oauth/token`. */
export const OAuthTokenResponse = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.Literal("Bearer"),
    expires_in: Type.Integer(),
    scope: Type.String(),
  },
  { additionalProperties: false, title: "OAuthToken" },
);
