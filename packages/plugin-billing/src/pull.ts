import type { BillingStore } from "./billing-store.js";
import type { CostRow } from "./cost-row.js";
import { costRowFromVendor } from "./cost-row.js";
import { addDays, dayOf, daysBetween, minDay } from "./day.js";
import type { VendorClient } from "./vendor-client.js";
import { VendorError } from "./vendor-error.js";

/** The days a pull reads. */
export interface PullPlan {
  /** First day, `YYYY-MM-DD`. */
  readonly startDay: string;
  /** Last day, included. */
  readonly endDay: string;
  /** Number of days (0: nothing to read). */
  readonly days: number;
  /** `incremental` (from the high-water mark minus the look-back), `initial` or `range`. */
  readonly mode: "incremental" | "initial" | "range";
}

/** Running totals, reported after each page. */
export interface PullTotals {
  rowsNew: number;
  rowsChanged: number;
  rowsUnchanged: number;
  rowsRemoved: number;
  rowsIgnored: number;
  pages: number;
  daysDone: number;
}

/** What a finished pull did. */
export interface PullSummary extends PullTotals {
  readonly source: string;
  readonly startDay: string;
  readonly endDay: string;
  readonly days: number;
  readonly mode: PullPlan["mode"];
  readonly requests: number;
  readonly retries: number;
}

/** Receives progress; the CLI draws a bar or writes log lines. */
export interface PullProgress {
  /** Called once with the plan. */
  begin(plan: PullPlan): void;
  /** Called after each stored page. */
  page(
    totals: Readonly<PullTotals>,
    chunk: { startDay: string; endDay: string; page: number },
  ): void;
  /** Called after each completed chunk. */
  chunk(totals: Readonly<PullTotals>, chunk: { startDay: string; endDay: string }): void;
  /** Called once when the pull ends, successfully or not. */
  end(): void;
}

/** Options of `runPull`. */
export interface PullOptions {
  readonly store: BillingStore;
  readonly client: VendorClient;
  /** The configured source name. */
  readonly source: string;
  /** Dimensions asked of the vendor. */
  readonly groupings: readonly string[];
  /** Rows per vendor page. */
  readonly pageSize: number;
  /** Days per chunk. */
  readonly chunkDays: number;
  /** Days re-read before the high-water mark. */
  readonly lookbackDays: number;
  /** Days read by the first pull. */
  readonly initialDays: number;
  /** An explicit back-fill range (both days included); default incremental. */
  readonly range?: { readonly startDay: string; readonly endDay: string };
  /** The clock. */
  readonly now: () => Date;
  /** Progress receiver. */
  readonly progress?: PullProgress;
  /** Aborts the pull between requests (what has been committed stays). */
  readonly signal?: AbortSignal;
}

/** Decides which days a pull reads. */
export async function planPull(
  options: Pick<PullOptions, "store" | "source" | "lookbackDays" | "initialDays" | "range" | "now">,
): Promise<PullPlan> {
  const today = dayOf(options.now());
  if (options.range) {
    const endDay = minDay(options.range.endDay, today);
    return {
      ...options.range,
      endDay,
      days: daysBetween(options.range.startDay, endDay),
      mode: "range",
    };
  }
  const state = await options.store.pullState(options.source);
  if (state.highWaterDay === null) {
    const startDay = addDays(today, -(options.initialDays - 1));
    return { startDay, endDay: today, days: daysBetween(startDay, today), mode: "initial" };
  }
  const from = addDays(state.highWaterDay, -(options.lookbackDays - 1));
  const startDay = from > today ? addDays(today, 1) : from;
  return { startDay, endDay: today, days: daysBetween(startDay, today), mode: "incremental" };
}

/**
 * Pulls daily costs into the store under the source's pull lock. Pages are committed one by one;
 * a chunk's days are reconciled (rows the vendor no longer sends are removed) and the high-water
 * mark advanced only when the whole chunk was read, so a pull killed at any point and run again
 * ends with exactly the data of a clean pull.
 */
export async function runPull(options: PullOptions): Promise<PullSummary> {
  return options.store.withPullLock(options.source, async () => {
    const plan = await planPull(options);
    const totals: PullTotals = {
      rowsNew: 0,
      rowsChanged: 0,
      rowsUnchanged: 0,
      rowsRemoved: 0,
      rowsIgnored: 0,
      pages: 0,
      daysDone: 0,
    };
    const tagGroupings = options.groupings.filter((g) => g.startsWith("tag:"));
    options.progress?.begin(plan);
    try {
      const pullId = await options.store.beginPull(options.source);
      for (let chunkStart = plan.startDay; plan.days > 0 && chunkStart <= plan.endDay; ) {
        const candidateEnd = addDays(chunkStart, options.chunkDays - 1);
        const chunkEnd = minDay(candidateEnd, plan.endDay);
        // Whether the vendor's end_date is inclusive is undocumented: ask for one day more and
        // keep only the chunk's days, which is right under either reading.
        const askedEnd = addDays(chunkEnd, 1);
        for await (const page of options.client.costPages(
          {
            startDay: chunkStart,
            endDay: askedEnd,
            groupings: options.groupings,
            pageSize: options.pageSize,
          },
          options.signal,
        )) {
          const rows: CostRow[] = [];
          page.rows.forEach((raw, index) => {
            const row = costRowFromVendor(raw, tagGroupings);
            if (typeof row === "string") {
              throw new VendorError(
                "invalid_response",
                `the vendor sent an invalid cost row (days ${chunkStart} to ${askedEnd}, page ${page.page}, row ${index + 1}): ${row}`,
              );
            }
            if (row.day < chunkStart || row.day > chunkEnd) totals.rowsIgnored += 1;
            else rows.push(row);
          });
          const counts = await options.store.upsertRows(options.source, pullId, rows);
          totals.rowsNew += counts.inserted;
          totals.rowsChanged += counts.changed;
          totals.rowsUnchanged += counts.unchanged;
          totals.pages += 1;
          options.progress?.page(totals, {
            startDay: chunkStart,
            endDay: chunkEnd,
            page: page.page,
          });
          options.signal?.throwIfAborted();
        }
        totals.rowsRemoved += await options.store.removeUnseen(
          options.source,
          pullId,
          chunkStart,
          chunkEnd,
        );
        await options.store.advanceHighWater(options.source, chunkEnd);
        totals.daysDone += daysBetween(chunkStart, chunkEnd);
        options.progress?.chunk(totals, { startDay: chunkStart, endDay: chunkEnd });
        chunkStart = addDays(chunkEnd, 1);
      }
      const summary: PullSummary = {
        source: options.source,
        startDay: plan.startDay,
        endDay: plan.endDay,
        days: plan.days,
        mode: plan.mode,
        ...totals,
        requests: options.client.stats.requests,
        retries: options.client.stats.retries,
      };
      await options.store.recordSuccess(options.source, options.now(), JSON.stringify(summary));
      return summary;
    } finally {
      options.progress?.end();
    }
  });
}
