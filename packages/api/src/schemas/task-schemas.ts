import { type Static, Type } from "typebox";
import { Nullable, pageQueryProperties, Timestamp } from "./common.js";
import { VariablesSchema } from "./prompt-schemas.js";

/** The processor types. */
export const ProcessorType = Type.Union(
  [Type.Literal("console"), Type.Literal("file"), Type.Literal("webhook")],
  { title: "ProcessorType" },
);
/** A processor type. */
export type ProcessorType = Static<typeof ProcessorType>;

/** The states of a task. */
export const TaskState = Type.Union(
  [Type.Literal("active"), Type.Literal("paused"), Type.Literal("stopped")],
  {
    description:
      "active: fires on its schedule; paused: schedule suspended, manual runs allowed; stopped: no runs at all until started.",
  },
);
/** A task state. */
export type TaskState = Static<typeof TaskState>;

/** A cron schedule with its time zone. */
export const ScheduleSchema = Type.Object(
  {
    cron: Type.String({
      minLength: 1,
      maxLength: 200,
      description: "Cron pattern (5 or 6 fields, seconds first when 6), e.g. `0 9 * * 1-5`.",
    }),
    timezone: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        default: "UTC",
        description: "IANA time zone, e.g. `Europe/Paris`. Default UTC.",
      }),
    ),
  },
  { additionalProperties: false },
);

/** Body of `POST /tasks` and `PUT /tasks/:id`. */
export const TaskInput = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: "^[^\\u0000-\\u001f\\u007f]+$",
      description: "No control characters.",
    }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    schedule: Type.Optional(Nullable(ScheduleSchema)),
    prompt_id: Type.String({ minLength: 1, maxLength: 100 }),
    variables: Type.Optional(VariablesSchema),
    model_id: Type.String({ minLength: 1, maxLength: 200 }),
    processors: Type.Optional(Type.Array(ProcessorType, { maxItems: 3, uniqueItems: true })),
    state: Type.Optional(TaskState),
  },
  { additionalProperties: false, title: "TaskInput" },
);
/** Parsed `TaskInput`. */
export type TaskInput = Static<typeof TaskInput>;

/** A task. */
export const TaskSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    schedule: Nullable(
      Type.Object(
        { cron: Type.String(), timezone: Type.String() },
        { additionalProperties: false },
      ),
    ),
    prompt_id: Type.String(),
    variables: Type.Record(Type.String(), Type.Unknown()),
    model_id: Type.String(),
    processors: Type.Array(ProcessorType),
    state: TaskState,
    next_run_at: Nullable(Timestamp),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { additionalProperties: false, title: "Task" },
);
/** A task as the API returns it. */
export type Task = Static<typeof TaskSchema>;

/** Query of `GET /tasks`. */
export const TaskListQuery = Type.Object(
  { ...pageQueryProperties, state: Type.Optional(TaskState) },
  { additionalProperties: false },
);

/** Answer of `GET /tasks/:id/status`. */
export const TaskStatusSchema = Type.Object(
  {
    id: Type.String(),
    state: TaskState,
    next_run_at: Nullable(Timestamp),
    last_run_at: Nullable(Timestamp),
    last_status: Nullable(Type.String()),
    last_error: Nullable(Type.String()),
    last_response_id: Nullable(Type.String()),
    runs: Type.Integer({ description: "Runs recorded." }),
    failures: Type.Integer({ description: "Runs that failed." }),
  },
  { additionalProperties: false, title: "TaskStatus" },
);
/** A task's status. */
export type TaskStatus = Static<typeof TaskStatusSchema>;
