import { type Static, Type } from "typebox";
import { Nullable, pageQueryProperties, Timestamp } from "./common.js";

/** A variable a prompt declares. */
export const PromptVariableSchema = Type.Object(
  {
    name: Type.String({ pattern: "^[A-Za-z_][A-Za-z0-9_]{0,63}$" }),
    description: Type.Optional(Type.String({ maxLength: 1000 })),
    default: Type.Optional(Type.Unknown({ description: "Value used when none is given." })),
  },
  { additionalProperties: false },
);

/** Body of `POST /prompts` and `PUT /prompts/:id`. */
export const PromptInput = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: "^[^\\u0000-\\u001f\\u007f]+$",
      description: "No control characters.",
    }),
    category: Type.Optional(Type.String({ minLength: 1, maxLength: 100, default: "general" })),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    template: Type.String({
      minLength: 1,
      maxLength: 100_000,
      description: "Handlebars template.",
    }),
    variables: Type.Optional(Type.Array(PromptVariableSchema, { maxItems: 100 })),
  },
  { additionalProperties: false, title: "PromptInput" },
);
/** Parsed `PromptInput`. */
export type PromptInput = Static<typeof PromptInput>;

/** A prompt. */
export const PromptSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    category: Type.String(),
    description: Type.String(),
    template: Type.String(),
    variables: Type.Array(PromptVariableSchema),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, title: "Prompt" },
);
/** A prompt as the API returns it. */
export type Prompt = Static<typeof PromptSchema>;

/** Query of `GET /prompts`. */
export const PromptListQuery = Type.Object(
  { ...pageQueryProperties, category: Type.Optional(Type.String({ maxLength: 100 })) },
  { additionalProperties: false },
);

/** A map of variable values. */
export const VariablesSchema = Type.Record(
  Type.String({ pattern: "^[A-Za-z_][A-Za-z0-9_]{0,63}$" }),
  Type.Unknown(),
);

/** Body of `POST /prompts/:id/test`. */
export const PromptTestInput = Type.Object(
  {
    variables: Type.Optional(VariablesSchema),
    model_id: Type.Optional(Type.String({ maxLength: 200, description: "Default offline:echo." })),
  },
  { additionalProperties: false },
);

/** The outcome of one model call made by a test endpoint. */
export const CallResultSchema = Type.Object(
  {
    status: Type.Union([Type.Literal("succeeded"), Type.Literal("failed")]),
    model_id: Type.String({
      description: "The model that answered (a fallback when it was used).",
    }),
    output: Nullable(Type.String()),
    error: Nullable(Type.String()),
    tokens_in: Type.Integer(),
    tokens_out: Type.Integer(),
    latency_ms: Type.Integer(),
    cost_estimate: Nullable(Type.Number()),
    attempts: Type.Integer(),
  },
  { additionalProperties: false, title: "CallResult" },
);

/** Answer of `POST /prompts/:id/test`. */
export const PromptTestResult = Type.Object(
  {
    rendered_prompt: Type.String(),
    variables: Type.Record(Type.String(), Type.Unknown()),
    result: CallResultSchema,
  },
  { additionalProperties: false, title: "PromptTestResult" },
);
