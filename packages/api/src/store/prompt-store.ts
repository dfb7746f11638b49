import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Clock } from "../clock.js";
import { ConflictError, NotFoundError } from "../errors.js";
import { paginate } from "../pagination.js";
import type { PromptVariable } from "../prompts/prompt-template.js";
import type { Prompt, PromptInput } from "../schemas/prompt-schemas.js";
import { fromJson, isUniqueViolation } from "./api-store.js";
import type { ApiDatabase, PromptTable } from "./schema.js";

function toPrompt(row: PromptTable): Prompt {
  return { ...row, variables: fromJson<PromptVariable[]>(row.variables) };
}

/** Prompts in the database. */
export interface PromptStore {
  /** Creates a prompt; 409 when the name is taken. */
  create(input: PromptInput): Promise<Prompt>;
  /** The prompt, or a 404 error. */
  get(id: string): Promise<Prompt>;
  /** Replaces a prompt; 404 when missing, 409 when the name is taken. */
  update(id: string, input: PromptInput): Promise<Prompt>;
  /** Deletes a prompt; 404 when missing, 409 while a task uses it. */
  delete(id: string): Promise<void>;
  /** A page of prompts, newest first, optionally of one category. */
  list(query: {
    limit?: number;
    cursor?: string;
    category?: string;
  }): Promise<{ items: Prompt[]; nextCursor: string | null }>;
}

/** Creates the prompt store. */
export function createPromptStore(db: Kysely<ApiDatabase>, clock: Clock): PromptStore {
  const store: PromptStore = {
    async create(input) {
      const now = clock.now().toISOString();
      const row: PromptTable = {
        id: randomUUID(),
        name: input.name,
        category: input.category ?? "general",
        description: input.description ?? "",
        template: input.template,
        variables: JSON.stringify(input.variables ?? []),
        created_at: now,
        updated_at: now,
      };
      try {
        await db.insertInto("api_prompts").values(row).execute();
      } catch (error) {
        if (isUniqueViolation(error))
          throw new ConflictError(`a prompt named "${input.name}" exists`);
        throw error;
      }
      return toPrompt(row);
    },
    async get(id) {
      const row = await db
        .selectFrom("api_prompts")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      if (!row) throw new NotFoundError(`prompt ${id} does not exist`);
      return toPrompt(row);
    },
    async update(id, input) {
      let updated: { id: string } | undefined;
      try {
        updated = await db
          .updateTable("api_prompts")
          .set({
            name: input.name,
            category: input.category ?? "general",
            description: input.description ?? "",
            template: input.template,
            variables: JSON.stringify(input.variables ?? []),
            updated_at: clock.now().toISOString(),
          })
          .where("id", "=", id)
          .returning("id")
          .executeTakeFirst();
      } catch (error) {
        if (isUniqueViolation(error))
          throw new ConflictError(`a prompt named "${input.name}" exists`);
        throw error;
      }
      if (!updated) throw new NotFoundError(`prompt ${id} does not exist`);
      return store.get(id);
    },
    async delete(id) {
      await db.transaction().execute(async (trx) => {
        const user = await trx
          .selectFrom("api_tasks")
          .select("name")
          .where("prompt_id", "=", id)
          .executeTakeFirst();
        if (user) throw new ConflictError(`prompt ${id} is used by task "${user.name}"`);
        const result = await trx.deleteFrom("api_prompts").where("id", "=", id).executeTakeFirst();
        if (Number(result.numDeletedRows) === 0)
          throw new NotFoundError(`prompt ${id} does not exist`);
      });
    },
    async list(query) {
      let q = db.selectFrom("api_prompts").selectAll();
      if (query.category !== undefined) q = q.where("category", "=", query.category);
      const page = await paginate(q, { createdAt: "created_at", id: "id" }, query);
      return { items: page.rows.map(toPrompt), nextCursor: page.nextCursor };
    },
  };
  return store;
}
