import type { ProcessorResult, ResponseRecord } from "../schemas/response-schemas.js";
import type { ProcessorType } from "../schemas/task-schemas.js";

/** A processor: hands a finished response to somewhere else. */
export interface Processor<C> {
  /** Its type, as named in tasks and in `/processors/:type`. */
  readonly type: ProcessorType;
  /** One sentence for `GET /processors`. */
  readonly description: string;
  /** Configuration used before an admin stores one. */
  readonly defaults: C;
  /** Delivers `response`; throws on failure (the caller records the error). */
  process(
    response: ResponseRecord,
    config: C,
  ): Promise<Omit<ProcessorResult, "type" | "ok" | "error">>;
}
