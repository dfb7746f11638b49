import { type Static, Type } from "typebox";
import { Nullable, pageQueryProperties, Timestamp } from "./common.js";
import { ProcessorType } from "./task-schemas.js";

/** Status of a run. */
export const RunStatus = Type.Union([
  Type.Literal("running"),
  Type.Literal("succeeded"),
  Type.Literal("failed"),
]);
/** A run status. */
export type RunStatus = Static<typeof RunStatus>;

/** What one processor did with a response. */
export const ProcessorResultSchema = Type.Object(
  {
    type: ProcessorType,
    ok: Type.Boolean(),
    detail: Nullable(Type.String({ description: "File name written, or HTTP status delivered." })),
    error: Nullable(Type.String()),
    attempts: Type.Integer(),
  },
  { additionalProperties: false },
);
/** A processor result. */
export type ProcessorResult = Static<typeof ProcessorResultSchema>;

/** A recorded task run. */
export const ResponseSchema = Type.Object(
  {
    id: Type.String(),
    task_id: Type.String(),
    task_name: Type.String(),
    prompt_id: Type.String(),
    rendered_prompt: Type.String(),
    variables: Type.Record(Type.String(), Type.Unknown()),
    model_id: Type.String(),
    output: Nullable(Type.String()),
    status: RunStatus,
    error: Nullable(Type.String()),
    tokens_in: Type.Integer(),
    tokens_out: Type.Integer(),
    latency_ms: Nullable(Type.Integer()),
    cost_estimate: Nullable(Type.Number()),
    attempts: Type.Integer(),
    trigger: Type.Union([Type.Literal("schedule"), Type.Literal("manual")]),
    scheduled_for: Nullable(Timestamp),
    processor_results: Type.Array(ProcessorResultSchema),
    created_at: Timestamp,
    started_at: Nullable(Timestamp),
    finished_at: Nullable(Timestamp),
  },
  { additionalProperties: false, title: "Response" },
);
/** A response as the API returns it. */
export type ResponseRecord = Static<typeof ResponseSchema>;

/** Query of `GET /responses`. */
export const ResponseListQuery = Type.Object(
  {
    ...pageQueryProperties,
    task_id: Type.Optional(Type.String({ maxLength: 100 })),
    model_id: Type.Optional(Type.String({ maxLength: 200 })),
    status: Type.Optional(RunStatus),
    since: Type.Optional(Type.String({ format: "date-time", description: "Created at or after." })),
    until: Type.Optional(Type.String({ format: "date-time", description: "Created before." })),
  },
  { additionalProperties: false },
);
/** Parsed `ResponseListQuery`. */
export type ResponseListQuery = Static<typeof ResponseListQuery>;
