import { SingleBar } from "cli-progress";
import type { BillingLogger } from "./logger.js";
import type { PullPlan, PullProgress, PullTotals } from "./pull.js";
import type { Redactor } from "./redactor.js";

/** Options of `createPullProgress`. */
export interface PullProgressOptions {
  /** Where the bar is drawn (stderr, so stdout keeps only the summary). */
  readonly stream: NodeJS.WritableStream;
  /** Draw a bar (a terminal) or write one log line per chunk (anything else). */
  readonly tty: boolean;
  /** Log lines when not on a terminal. */
  readonly logger: BillingLogger;
  /** Applied to everything drawn. */
  readonly redact: Redactor;
}

/** A progress bar over the days of the pull on a terminal; plain log lines otherwise. */
export function createPullProgress(options: PullProgressOptions): PullProgress {
  if (!options.tty) {
    return {
      begin: (plan) =>
        options.logger.info(
          { start: plan.startDay, end: plan.endDay, days: plan.days, mode: plan.mode },
          plan.days === 0 ? "nothing to pull: the store is up to date" : "pull started",
        ),
      page: () => {},
      chunk: (totals, chunk) =>
        options.logger.info(
          {
            start: chunk.startDay,
            end: chunk.endDay,
            days_done: totals.daysDone,
            rows_new: totals.rowsNew,
            rows_changed: totals.rowsChanged,
            rows_unchanged: totals.rowsUnchanged,
          },
          "chunk stored",
        ),
      end: () => {},
    };
  }
  const bar = new SingleBar({
    stream: {
      write: (text: string) => options.stream.write(options.redact(text)),
      // cli-progress needs cursor control on its stream; the terminal provides it.
      ...pickTerminal(options.stream),
    } as unknown as NodeJS.WritableStream,
    format: "pulling |{bar}| {value}/{total} days | {rows} rows | {chunk}",
    hideCursor: true,
    clearOnComplete: false,
    noTTYOutput: false,
  });
  let started = false;
  const rows = (t: Readonly<PullTotals>) => t.rowsNew + t.rowsChanged + t.rowsUnchanged;
  return {
    begin(plan: PullPlan) {
      if (plan.days === 0) return;
      started = true;
      bar.start(plan.days, 0, { rows: 0, chunk: `${plan.startDay}..${plan.endDay}` });
    },
    page(totals, chunk) {
      if (started)
        bar.update({
          rows: rows(totals),
          chunk: `${chunk.startDay}..${chunk.endDay} p${chunk.page}`,
        });
    },
    chunk(totals, chunk) {
      if (started)
        bar.update(totals.daysDone, {
          rows: rows(totals),
          chunk: `${chunk.startDay}..${chunk.endDay}`,
        });
    },
    end() {
      if (started) bar.stop();
      started = false;
    },
  };
}

function pickTerminal(stream: NodeJS.WritableStream): Record<string, unknown> {
  const s = stream as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { isTTY: true };
  for (const key of [
    "cursorTo",
    "moveCursor",
    "clearLine",
    "clearScreenDown",
    "columns",
    "on",
    "removeListener",
  ]) {
    const value = s[key];
    out[key] =
      typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(stream) : value;
  }
  return out;
}
