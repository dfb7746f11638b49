import type { Kysely } from "kysely";
import { NotFoundError } from "../errors.js";
import { paginate } from "../pagination.js";
import type {
  ProcessorResult,
  ResponseListQuery,
  ResponseRecord,
  RunStatus,
} from "../schemas/response-schemas.js";
import { fromJson } from "./api-store.js";
import type { ApiDatabase, ResponseTable } from "./schema.js";

function toResponse(row: ResponseTable): ResponseRecord {
  return {
    ...row,
    variables: fromJson<Record<string, unknown>>(row.variables),
    status: row.status as RunStatus,
    trigger: row.trigger as ResponseRecord["trigger"],
    processor_results: fromJson<ProcessorResult[]>(row.processor_results),
    tokens_in: Number(row.tokens_in),
    tokens_out: Number(row.tokens_out),
    attempts: Number(row.attempts),
    latency_ms: row.latency_ms === null ? null : Number(row.latency_ms),
    cost_estimate: row.cost_estimate === null ? null : Number(row.cost_estimate),
  };
}

/** The outcome written when a run ends. */
export interface RunOutcome {
  readonly status: "succeeded" | "failed";
  readonly model_id: string;
  readonly output: string | null;
  readonly error: string | null;
  readonly tokens_in: number;
  readonly tokens_out: number;
  readonly latency_ms: number | null;
  readonly cost_estimate: number | null;
  readonly attempts: number;
  readonly processor_results: readonly ProcessorResult[];
  readonly finished_at: string;
}

/** Summary of a task's runs. */
export interface RunSummary {
  readonly last: ResponseRecord | undefined;
  readonly runs: number;
  readonly failures: number;
}

/** Responses (task runs) in the database. */
export interface ResponseStore {
  /** Records a run as started; false when a row with this id exists already (a repeated tick). */
  start(row: ResponseTable): Promise<boolean>;
  /** Records the end of a run. */
  finish(id: string, outcome: RunOutcome): Promise<ResponseRecord>;
  /** The response, or a 404 error. */
  get(id: string): Promise<ResponseRecord>;
  /** The response, or undefined. */
  find(id: string): Promise<ResponseRecord | undefined>;
  /** A page of responses, newest first, filtered. */
  list(query: ResponseListQuery): Promise<{ items: ResponseRecord[]; nextCursor: string | null }>;
  /** Last run and counts of a task. */
  summary(taskId: string): Promise<RunSummary>;
  /** Runs left `running` (by a process that stopped), oldest first. */
  unfinished(): Promise<ResponseRecord[]>;
}

/** Creates the response store. */
export function createResponseStore(db: Kysely<ApiDatabase>): ResponseStore {
  const store: ResponseStore = {
    async start(row) {
      const result = await db
        .insertInto("api_responses")
        .values(row)
        .onConflict((oc) => oc.column("id").doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async finish(id, outcome) {
      await db
        .updateTable("api_responses")
        .set({
          ...outcome,
          processor_results: JSON.stringify(outcome.processor_results),
        })
        .where("id", "=", id)
        .execute();
      return store.get(id);
    },
    async find(id) {
      const row = await db
        .selectFrom("api_responses")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row ? toResponse(row) : undefined;
    },
    async get(id) {
      const found = await store.find(id);
      if (!found) throw new NotFoundError(`response ${id} does not exist`);
      return found;
    },
    async list(query) {
      let q = db.selectFrom("api_responses").selectAll();
      if (query.task_id !== undefined) q = q.where("task_id", "=", query.task_id);
      if (query.model_id !== undefined) q = q.where("model_id", "=", query.model_id);
      if (query.status !== undefined) q = q.where("status", "=", query.status);
      if (query.since !== undefined)
        q = q.where("created_at", ">=", new Date(query.since).toISOString());
      if (query.until !== undefined)
        q = q.where("created_at", "<", new Date(query.until).toISOString());
      const page = await paginate(q, { createdAt: "created_at", id: "id" }, query);
      return { items: page.rows.map(toResponse), nextCursor: page.nextCursor };
    },
    async summary(taskId) {
      const last = await db
        .selectFrom("api_responses")
        .selectAll()
        .where("task_id", "=", taskId)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
      const counts = await db
        .selectFrom("api_responses")
        .select((eb) => [
          eb.fn.countAll<string | number>().as("runs"),
          eb.fn
            .sum<string | number | null>(
              eb.case().when("status", "=", "failed").then(1).else(0).end(),
            )
            .as("failures"),
        ])
        .where("task_id", "=", taskId)
        .executeTakeFirstOrThrow();
      return {
        last: last ? toResponse(last) : undefined,
        runs: Number(counts.runs),
        failures: Number(counts.failures ?? 0),
      };
    },
    async unfinished() {
      const rows = await db
        .selectFrom("api_responses")
        .selectAll()
        .where("status", "=", "running")
        .orderBy("created_at", "asc")
        .execute();
      return rows.map(toResponse);
    },
  };
  return store;
}
