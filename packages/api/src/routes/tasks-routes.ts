import { randomUUID } from "node:crypto";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyInstance } from "fastify";
import { Type } from "typebox";
import type { ApiServices } from "../api-services.js";
import { BadRequestError, ConflictError } from "../errors.js";
import { setNextLink } from "../pagination.js";
import { resolveVariables } from "../prompts/prompt-template.js";
import { IdParams, PageOf, PageQuery, problemResponses } from "../schemas/common.js";
import { ResponseSchema } from "../schemas/response-schemas.js";
import {
  type TaskInput,
  TaskInput as TaskInputSchema,
  TaskListQuery,
  TaskSchema,
  type TaskState,
  TaskStatusSchema,
} from "../schemas/task-schemas.js";
import type { TaskFields } from "../store/task-store.js";
import { checkSchedule } from "../tasks/cron-schedule.js";
import { nextRunAt } from "../tasks/task-scheduler.js";

async function fieldsFrom(
  services: ApiServices,
  input: TaskInput,
  state: TaskState,
): Promise<TaskFields> {
  const prompt = await services.prompts.get(input.prompt_id).catch(() => {
    throw new BadRequestError(`prompt_id ${input.prompt_id} does not exist`);
  });
  if (!services.catalog.get(input.model_id)) {
    throw new BadRequestError(`model_id ${input.model_id} does not exist; see GET /models`);
  }
  const schedule = input.schedule
    ? { cron: input.schedule.cron, timezone: input.schedule.timezone ?? "UTC" }
    : null;
  const now = services.clock.now();
  if (schedule) checkSchedule(schedule, now);
  const variables = input.variables ?? {};
  resolveVariables(prompt.variables, variables);
  return {
    name: input.name,
    description: input.description ?? "",
    schedule,
    prompt_id: input.prompt_id,
    variables,
    model_id: input.model_id,
    processors: input.processors ?? [],
    state,
    next_run_at: nextRunAt({ schedule, state }, now),
  };
}

/** Task routes: CRUD, execute now, start/pause/stop, history and status. */
export async function taskRoutes(scope: FastifyInstance, services: ApiServices): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ["tasks"];
  const sync = async (id: string) => services.scheduler?.sync(id);

  app.get(
    "/tasks",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        operationId: "listTasks",
        summary: "List tasks, newest first",
        querystring: TaskListQuery,
        response: { 200: PageOf(TaskSchema, "TaskPage"), ...problemResponses() },
      },
    },
    async (request, reply) => {
      const page = await services.tasks.list(request.query);
      setNextLink(request, reply, page.nextCursor);
      return { items: page.items, next_cursor: page.nextCursor };
    },
  );

  app.post(
    "/tasks",
    {
      config: { access: "admin" },
      schema: {
        tags,
        operationId: "createTask",
        summary: "Create a task",
        body: TaskInputSchema,
        response: { 201: TaskSchema, ...problemResponses(409) },
      },
    },
    async (request, reply) => {
      const task = await services.tasks.create(
        await fieldsFrom(services, request.body, request.body.state ?? "active"),
      );
      await sync(task.id);
      reply.code(201).header("location", `${request.url.split("?")[0]}/${task.id}`);
      return task;
    },
  );

  app.get(
    "/tasks/:id",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        operationId: "getTask",
        summary: "Read a task",
        params: IdParams,
        response: { 200: TaskSchema, ...problemResponses(404) },
      },
    },
    async (request) => services.tasks.get(request.params.id),
  );

  app.put(
    "/tasks/:id",
    {
      config: { access: "admin" },
      schema: {
        tags,
        operationId: "replaceTask",
        summary: "Replace a task",
        params: IdParams,
        body: TaskInputSchema,
        response: { 200: TaskSchema, ...problemResponses(404, 409) },
      },
    },
    async (request) => {
      const current = await services.tasks.get(request.params.id);
      const fields = await fieldsFrom(services, request.body, request.body.state ?? current.state);
      const task = await services.tasks.update(request.params.id, fields);
      await sync(task.id);
      return task;
    },
  );

  app.delete(
    "/tasks/:id",
    {
      config: { access: "admin" },
      schema: {
        tags,
        operationId: "deleteTask",
        summary: "Delete a task (its responses stay)",
        params: IdParams,
        response: { 204: Type.Null(), ...problemResponses(404) },
      },
    },
    async (request, reply) => {
      await services.tasks.delete(request.params.id);
      await sync(request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/tasks/:id/execute",
    {
      config: { access: "operator" },
      schema: {
        tags,
        operationId: "executeTask",
        summary: "Run a task now and return the recorded response",
        description: "Allowed for active and paused tasks; 409 for a stopped task.",
        params: IdParams,
        response: { 201: ResponseSchema, ...problemResponses(404, 409) },
      },
    },
    async (request, reply) => {
      const task = await services.tasks.get(request.params.id);
      if (task.state === "stopped")
        throw new ConflictError(`task ${task.id} is stopped; start it first`);
      const response = await services.runner.run({
        id: randomUUID(),
        taskId: task.id,
        trigger: "manual",
        scheduledFor: null,
      });
      if (!response) throw new ConflictError(`task ${task.id} was deleted while it ran`);
      reply
        .code(201)
        .header(
          "location",
          `${request.url.replace(/\/tasks\/[^/]+\/execute.*$/, "")}/responses/${response.id}`,
        );
      return response;
    },
  );

  const transitions: Array<{
    action: "start" | "pause" | "stop";
    to: TaskState;
    from: TaskState[];
    summary: string;
  }> = [
    {
      action: "start",
      to: "active",
      from: ["active", "paused", "stopped"],
      summary: "Activate a task's schedule",
    },
    {
      action: "pause",
      to: "paused",
      from: ["active", "paused"],
      summary: "Suspend a task's schedule (manual runs stay allowed)",
    },
    {
      action: "stop",
      to: "stopped",
      from: ["active", "paused", "stopped"],
      summary: "Stop a task (no runs at all)",
    },
  ];
  for (const t of transitions) {
    app.post(
      `/tasks/:id/${t.action}`,
      {
        config: { access: "operator" },
        schema: {
          tags,
          operationId: `${t.action}Task`,
          summary: t.summary,
          description: `Allowed from: ${t.from.join(", ")}; repeating it is harmless.`,
          params: IdParams,
          response: { 200: TaskSchema, ...problemResponses(404, 409) },
        },
      },
      async (request) => {
        const task = await services.tasks.get(request.params.id);
        if (!t.from.includes(task.state)) {
          throw new ConflictError(
            `a ${task.state} task cannot be ${t.action === "pause" ? "paused" : `${t.action}ed`}`,
          );
        }
        if (task.state === t.to) return task;
        const next = nextRunAt({ schedule: task.schedule, state: t.to }, services.clock.now());
        const updated = await services.tasks.setState(task.id, t.to, next);
        await sync(task.id);
        return updated;
      },
    );
  }

  app.get(
    "/tasks/:id/history",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        operationId: "getTaskHistory",
        summary: "The task's runs, newest first",
        params: IdParams,
        querystring: PageQuery,
        response: { 200: PageOf(ResponseSchema, "ResponsePage"), ...problemResponses(404) },
      },
    },
    async (request, reply) => {
      await services.tasks.get(request.params.id);
      const page = await services.responses.list({ ...request.query, task_id: request.params.id });
      setNextLink(request, reply, page.nextCursor);
      return { items: page.items, next_cursor: page.nextCursor };
    },
  );

  app.get(
    "/tasks/:id/status",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        operationId: "getTaskStatus",
        summary: "State, last run, next run and last error of a task",
        params: IdParams,
        response: { 200: TaskStatusSchema, ...problemResponses(404) },
      },
    },
    async (request) => {
      const task = await services.tasks.get(request.params.id);
      const summary = await services.responses.summary(task.id);
      const lastFailure = await services.responses.list({
        task_id: task.id,
        status: "failed",
        limit: 1,
      });
      return {
        id: task.id,
        state: task.state,
        next_run_at: task.next_run_at,
        last_run_at: summary.last?.started_at ?? summary.last?.created_at ?? null,
        last_status: summary.last?.status ?? null,
        last_error: lastFailure.items[0]?.error ?? null,
        last_response_id: summary.last?.id ?? null,
        runs: summary.runs,
        failures: summary.failures,
      };
    },
  );
}
