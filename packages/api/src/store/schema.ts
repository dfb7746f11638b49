/** Columns of the `api_prompts` table. JSON columns hold text in both engines. */
export interface PromptTable {
  id: string;
  name: string;
  category: string;
  description: string;
  template: string;
  /** JSON array of `{ name, description?, default? }`. */
  variables: string;
  created_at: string;
  updated_at: string;
}

/** Columns of the `api_tasks` table. */
export interface TaskTable {
  id: string;
  name: string;
  description: string;
  cron: string | null;
  timezone: string;
  prompt_id: string;
  /** JSON object of variable values. */
  variables: string;
  model_id: string;
  /** JSON array of processor types. */
  processors: string;
  state: string;
  /** The next tick the scheduler will fire (ISO 8601), null when not scheduled. */
  next_run_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Columns of the `api_responses` table: one row per task run. */
export interface ResponseTable {
  id: string;
  task_id: string;
  task_name: string;
  prompt_id: string;
  rendered_prompt: string;
  /** JSON object of the variables the prompt was rendered with. */
  variables: string;
  model_id: string;
  output: string | null;
  status: string;
  error: string | null;
  tokens_in: number;
  tokens_out: number;
  latency_ms: number | null;
  cost_estimate: number | null;
  attempts: number;
  trigger: string;
  scheduled_for: string | null;
  /** JSON array of `{ type, ok, error? }`. */
  processor_results: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** Columns of `api_model_settings`: the stored configuration of a model. */
export interface ModelSettingsTable {
  model_id: string;
  /** JSON `ModelConfig`. */
  config: string;
  updated_at: string;
}

/** Columns of `api_processor_settings`: the stored configuration of a processor type. */
export interface ProcessorSettingsTable {
  type: string;
  /** JSON configuration, secrets included (never returned as such). */
  config: string;
  updated_at: string;
}

/** Columns of `api_model_calls`: one row per call of a model, for usage statistics. */
export interface ModelCallTable {
  id: string;
  model_id: string;
  purpose: string;
  ok: number;
  tokens_in: number;
  tokens_out: number;
  latency_ms: number;
  cost_estimate: number | null;
  created_at: string;
}

/** Columns of `api_oauth_clients`: OAuth client-credentials clients. */
export interface OAuthClientTable {
  id: string;
  name: string;
  /** `scrypt$<salt>$<hash>` of the client secret; the secret itself is never stored. */
  secret_hash: string;
  /** JSON array of the roles (scopes) the client may request. */
  roles: string;
  created_at: string;
}

/** The API's tables. */
export interface ApiDatabase {
  api_prompts: PromptTable;
  api_tasks: TaskTable;
  api_responses: ResponseTable;
  api_model_settings: ModelSettingsTable;
  api_processor_settings: ProcessorSettingsTable;
  api_model_calls: ModelCallTable;
  api_oauth_clients: OAuthClientTable;
}
