import type { RetryOptions } from "../api-options.js";
import type { Clock } from "../clock.js";
import { BadRequestError, NotFoundError } from "../errors.js";
import type { ProcessorResult, ResponseRecord } from "../schemas/response-schemas.js";
import type { ProcessorType } from "../schemas/task-schemas.js";
import type { SettingsStore } from "../store/settings-store.js";
import { type ConsoleProcessorConfig, createConsoleProcessor } from "./console-processor.js";
import {
  checkProcessorDirectory,
  createFileProcessor,
  type FileProcessorConfig,
} from "./file-processor.js";
import type { Processor } from "./processor.js";
import { createWebhookProcessor, type WebhookProcessorConfig } from "./webhook-processor.js";

/** A processor as the API shows it (secrets replaced by `secret_set`). */
export interface ProcessorView {
  readonly type: ProcessorType;
  readonly description: string;
  readonly enabled: boolean;
  readonly config: Record<string, unknown>;
  readonly updated_at: string | null;
}

/** The processors with their stored configurations. */
export interface ProcessorRegistry {
  /** Every processor type. */
  list(): Promise<ProcessorView[]>;
  /** One processor; 404 for an unknown type. */
  get(type: string): Promise<ProcessorView>;
  /** Merges `input` into the stored configuration after validating it; 400 when invalid. */
  configure(type: string, input: Record<string, unknown>): Promise<ProcessorView>;
  /** Runs the named processors on a finished response, each independently. */
  run(types: readonly ProcessorType[], response: ResponseRecord): Promise<ProcessorResult[]>;
  /**
   * The longest `run(types)` can take with the current configuration, in milliseconds (a
   * webhook timing out on every attempt, every backoff at its longest; console and file count
   * a few seconds each).
   */
  longestRunMs(types: readonly ProcessorType[]): Promise<number>;
}

/** Options of `createProcessorRegistry`. */
export interface ProcessorRegistryOptions {
  readonly settings: SettingsStore;
  readonly fileRoot: string;
  readonly fetch: typeof fetch;
  readonly clock: Clock;
  readonly retry: RetryOptions;
  /** Where the console processor writes. Default standard error. */
  readonly consoleWrite?: (line: string) => void;
}

type AnyConfig = ConsoleProcessorConfig | FileProcessorConfig | WebhookProcessorConfig;

/** Creates the registry of the console, file and webhook processors. */
export function createProcessorRegistry(options: ProcessorRegistryOptions): ProcessorRegistry {
  const processors = new Map<ProcessorType, Processor<AnyConfig>>([
    ["console", createConsoleProcessor(options.consoleWrite) as Processor<AnyConfig>],
    ["file", createFileProcessor(options.fileRoot) as Processor<AnyConfig>],
    [
      "webhook",
      createWebhookProcessor(options.fetch, options.clock, options.retry) as Processor<AnyConfig>,
    ],
  ]);

  function processor(type: string): Processor<AnyConfig> {
    const p = processors.get(type as ProcessorType);
    if (!p)
      throw new NotFoundError(`processor ${type} does not exist; use console, file or webhook`);
    return p;
  }

  async function load(type: ProcessorType) {
    const p = processor(type);
    const stored = await options.settings.processor<Partial<AnyConfig>>(type);
    return {
      p,
      config: { ...p.defaults, ...stored?.config } as AnyConfig,
      updatedAt: stored?.updated_at ?? null,
    };
  }

  function view(
    p: Processor<AnyConfig>,
    config: AnyConfig,
    updatedAt: string | null,
  ): ProcessorView {
    const { secret, ...shown } = config as WebhookProcessorConfig;
    return {
      type: p.type,
      description: p.description,
      enabled: config.enabled,
      config:
        p.type === "webhook" ? { ...shown, secret_set: typeof secret === "string" } : { ...config },
      updated_at: updatedAt,
    };
  }

  const registry: ProcessorRegistry = {
    async list() {
      return Promise.all([...processors.keys()].map((t) => registry.get(t)));
    },
    async get(type) {
      const { p, config, updatedAt } = await load(processor(type).type);
      return view(p, config, updatedAt);
    },
    async configure(type, input) {
      const { p, config } = await load(processor(type).type);
      const next = { ...config, ...input } as AnyConfig;
      if (p.type === "file") {
        const file = next as FileProcessorConfig;
        (next as { directory: string }).directory = checkProcessorDirectory(file.directory);
      }
      if (p.type === "webhook") {
        const hook = next as WebhookProcessorConfig;
        if (hook.url !== null) {
          let parsed: URL | undefined;
          try {
            parsed = new URL(hook.url);
          } catch {
            parsed = undefined;
          }
          if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
            throw new BadRequestError("url must be an absolute http(s) URL");
          }
          if (parsed.username || parsed.password) {
            throw new BadRequestError("url must not carry credentials; use the signing secret");
          }
        }
        if (hook.enabled && (hook.url === null || hook.secret === undefined)) {
          throw new BadRequestError("an enabled webhook needs a url and a secret");
        }
      }
      const updatedAt = await options.settings.saveProcessor(p.type, next);
      return view(p, next, updatedAt);
    },
    async longestRunMs(types) {
      let total = 0;
      for (const type of types) {
        const { config } = await load(type);
        if (type === "webhook") {
          const hook = config as WebhookProcessorConfig;
          const attempts = Math.max(1, hook.max_attempts);
          total += attempts * hook.timeout_ms + (attempts - 1) * options.retry.maxDelayMs;
        } else {
          total += 5_000;
        }
      }
      return total;
    },
    async run(types, response) {
      const results: ProcessorResult[] = [];
      for (const type of types) {
        try {
          const { p, config } = await load(type);
          if (!config.enabled) throw new Error(`processor ${type} is disabled`);
          const out = await p.process(response, config);
          results.push({ type, ok: true, error: null, ...out });
        } catch (error) {
          results.push({
            type,
            ok: false,
            detail: null,
            error: (error as Error).message,
            attempts: (error as { attempts?: number }).attempts ?? 1,
          });
        }
      }
      return results;
    },
  };
  return registry;
}
