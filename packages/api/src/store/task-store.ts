import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Clock } from "../clock.js";
import { ConflictError, NotFoundError } from "../errors.js";
import { paginate } from "../pagination.js";
import type { ProcessorType, Task, TaskState } from "../schemas/task-schemas.js";
import { fromJson, isUniqueViolation } from "./api-store.js";
import type { ApiDatabase, TaskTable } from "./schema.js";

/** A task's fields after validation, as stored. */
export interface TaskFields {
  readonly name: string;
  readonly description: string;
  readonly schedule: { readonly cron: string; readonly timezone: string } | null;
  readonly prompt_id: string;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly model_id: string;
  readonly processors: readonly ProcessorType[];
  readonly state: TaskState;
  readonly next_run_at: string | null;
}

function toTask(row: TaskTable): Task {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    schedule: row.cron === null ? null : { cron: row.cron, timezone: row.timezone },
    prompt_id: row.prompt_id,
    variables: fromJson<Record<string, unknown>>(row.variables),
    model_id: row.model_id,
    processors: fromJson<ProcessorType[]>(row.processors),
    state: row.state as TaskState,
    next_run_at: row.next_run_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function columns(fields: TaskFields) {
  return {
    name: fields.name,
    description: fields.description,
    cron: fields.schedule?.cron ?? null,
    timezone: fields.schedule?.timezone ?? "UTC",
    prompt_id: fields.prompt_id,
    variables: JSON.stringify(fields.variables),
    model_id: fields.model_id,
    processors: JSON.stringify(fields.processors),
    state: fields.state,
    next_run_at: fields.next_run_at,
  };
}

/** Tasks in the database. */
export interface TaskStore {
  /** Creates a task; 409 when the name is taken. */
  create(fields: TaskFields): Promise<Task>;
  /** The task, or a 404 error. */
  get(id: string): Promise<Task>;
  /** The task, or undefined. */
  find(id: string): Promise<Task | undefined>;
  /** Replaces a task; 404 when missing, 409 when the name is taken. */
  update(id: string, fields: TaskFields): Promise<Task>;
  /** Deletes a task; 404 when missing. Its responses stay. */
  delete(id: string): Promise<void>;
  /** A page of tasks, newest first, optionally in one state. */
  list(query: {
    limit?: number;
    cursor?: string;
    state?: TaskState;
  }): Promise<{ items: Task[]; nextCursor: string | null }>;
  /** Sets state and next run together. */
  setState(id: string, state: TaskState, nextRunAt: string | null): Promise<Task>;
  /**
   * Moves `next_run_at` from `expected` to `next`; false when another writer moved it first
   * (the tick was already taken care of).
   */
  advance(id: string, expected: string, next: string | null): Promise<boolean>;
  /** Every active task with a schedule. */
  scheduled(): Promise<Task[]>;
  /** Every task using a prompt. */
  byPrompt(promptId: string): Promise<Task[]>;
}

/** Creates the task store. */
export function createTaskStore(db: Kysely<ApiDatabase>, clock: Clock): TaskStore {
  const store: TaskStore = {
    async create(fields) {
      const now = clock.now().toISOString();
      const row: TaskTable = {
        id: randomUUID(),
        ...columns(fields),
        created_at: now,
        updated_at: now,
      };
      try {
        await db.insertInto("api_tasks").values(row).execute();
      } catch (error) {
        if (isUniqueViolation(error))
          throw new ConflictError(`a task named "${fields.name}" exists`);
        throw error;
      }
      return toTask(row);
    },
    async find(id) {
      const row = await db
        .selectFrom("api_tasks")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row ? toTask(row) : undefined;
    },
    async get(id) {
      const task = await store.find(id);
      if (!task) throw new NotFoundError(`task ${id} does not exist`);
      return task;
    },
    async update(id, fields) {
      let updated: { id: string } | undefined;
      try {
        updated = await db
          .updateTable("api_tasks")
          .set({ ...columns(fields), updated_at: clock.now().toISOString() })
          .where("id", "=", id)
          .returning("id")
          .executeTakeFirst();
      } catch (error) {
        if (isUniqueViolation(error))
          throw new ConflictError(`a task named "${fields.name}" exists`);
        throw error;
      }
      if (!updated) throw new NotFoundError(`task ${id} does not exist`);
      return store.get(id);
    },
    async delete(id) {
      const result = await db.deleteFrom("api_tasks").where("id", "=", id).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw new NotFoundError(`task ${id} does not exist`);
    },
    async list(query) {
      let q = db.selectFrom("api_tasks").selectAll();
      if (query.state !== undefined) q = q.where("state", "=", query.state);
      const page = await paginate(q, { createdAt: "created_at", id: "id" }, query);
      return { items: page.rows.map(toTask), nextCursor: page.nextCursor };
    },
    async setState(id, state, nextRunAt) {
      const updated = await db
        .updateTable("api_tasks")
        .set({ state, next_run_at: nextRunAt, updated_at: clock.now().toISOString() })
        .where("id", "=", id)
        .returning("id")
        .executeTakeFirst();
      if (!updated) throw new NotFoundError(`task ${id} does not exist`);
      return store.get(id);
    },
    async advance(id, expected, next) {
      const result = await db
        .updateTable("api_tasks")
        .set({ next_run_at: next })
        .where("id", "=", id)
        .where("next_run_at", "=", expected)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async scheduled() {
      const rows = await db
        .selectFrom("api_tasks")
        .selectAll()
        .where("state", "=", "active")
        .where("cron", "is not", null)
        .execute();
      return rows.map(toTask);
    },
    async byPrompt(promptId) {
      const rows = await db
        .selectFrom("api_tasks")
        .selectAll()
        .where("prompt_id", "=", promptId)
        .execute();
      return rows.map(toTask);
    },
  };
  return store;
}
