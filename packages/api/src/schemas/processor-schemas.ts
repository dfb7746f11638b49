import { Type } from "typebox";
import { Nullable, Timestamp } from "./common.js";

/** Processor type path parameter. */
export const ProcessorTypeParams = Type.Object(
  { type: Type.String({ minLength: 1, maxLength: 50 }) },
  { additionalProperties: false },
);

/** Configuration of the console processor. */
export const ConsoleConfigSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    format: Type.Union([Type.Literal("text"), Type.Literal("json")], {
      description: "text: one summary line; json: the whole response as one line.",
    }),
  },
  { additionalProperties: false, title: "ConsoleProcessorConfig" },
);

/** Configuration of the file processor. */
export const FileConfigSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    directory: Type.String({
      maxLength: 500,
      description: "Relative to the processor root; absolute paths and `..` are refused.",
    }),
    format: Type.Union([Type.Literal("json"), Type.Literal("text")]),
  },
  { additionalProperties: false, title: "FileProcessorConfig" },
);

/** Configuration of the webhook processor as stored (the secret is write-only). */
export const WebhookConfigSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    url: Nullable(
      Type.String({ maxLength: 2000, description: "http(s) URL receiving a POST per response." }),
    ),
    secret: Type.Optional(
      Type.String({ minLength: 16, maxLength: 500, description: "HMAC key; write-only." }),
    ),
    max_attempts: Type.Integer({ minimum: 1, maximum: 10 }),
    timeout_ms: Type.Integer({ minimum: 100, maximum: 60_000 }),
  },
  { additionalProperties: false, title: "WebhookProcessorConfig" },
);

/** A processor as listed and read. */
export const ProcessorSchema = Type.Object(
  {
    type: Type.String(),
    description: Type.String(),
    enabled: Type.Boolean(),
    config: Type.Record(Type.String(), Type.Unknown(), {
      description: "The configuration; the webhook secret appears only as `secret_set`.",
    }),
    updated_at: Nullable(Timestamp),
  },
  { additionalProperties: false, title: "Processor" },
);
