import { Type } from "typebox";
import { Nullable } from "./common.js";

/** Model id path parameter (`provider:name`). */
export const ModelIdParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

/** Usage statistics of a model. */
export const ModelUsageSchema = Type.Object(
  {
    calls: Type.Integer({ description: "Calls made (retries included)." }),
    errors: Type.Integer(),
    tokens_in: Type.Integer(),
    tokens_out: Type.Integer(),
    average_latency_ms: Nullable(Type.Number()),
    estimated_spend: Type.Number({
      description: "USD from the configured prices; calls made without a price count 0.",
    }),
    unpriced_calls: Type.Integer({ description: "Successful calls whose spend is unknown." }),
  },
  { additionalProperties: false, title: "ModelUsage" },
);

/** A model with its availability and usage. */
export const ModelSchema = Type.Object(
  {
    id: Type.String(),
    provider: Type.String(),
    name: Type.String(),
    available: Type.Boolean(),
    unavailable_reason: Nullable(Type.String()),
    usage: ModelUsageSchema,
  },
  { additionalProperties: false, title: "Model" },
);

/** A model configuration. */
export const ModelConfigSchema = Type.Object(
  {
    temperature: Nullable(Type.Number({ minimum: 0, maximum: 2 })),
    max_tokens: Type.Integer({ minimum: 1, maximum: 200_000 }),
    system_message: Type.String({ maxLength: 20_000 }),
    timeout_ms: Type.Integer({ minimum: 100, maximum: 600_000 }),
    fallback_model_id: Nullable(Type.String({ maxLength: 200 })),
    input_price_per_million: Nullable(Type.Number({ minimum: 0 })),
    output_price_per_million: Nullable(Type.Number({ minimum: 0 })),
  },
  { additionalProperties: false, title: "ModelConfig" },
);

/** Body of `PUT /models/:id/config`: fields left out keep their current value. */
export const ModelConfigInput = Type.Partial(ModelConfigSchema, {
  additionalProperties: false,
  title: "ModelConfigInput",
});

/** Body of `POST /models/:id/test`. */
export const ModelTestInput = Type.Object(
  {
    prompt: Type.Optional(
      Type.String({ minLength: 1, maxLength: 10_000, default: "Reply with one short greeting." }),
    ),
  },
  { additionalProperties: false },
);
