import { Cron } from "croner";
import { BadRequestError } from "../errors.js";

/** A task schedule: a cron pattern read in an IANA time zone. */
export interface Schedule {
  readonly cron: string;
  readonly timezone: string;
}

function cronFor(schedule: Schedule): Cron {
  return new Cron(schedule.cron, { timezone: schedule.timezone, paused: true });
}

/** Checks a schedule (pattern, time zone, and that it ever fires); throws a 400 error naming the fault. */
export function checkSchedule(schedule: Schedule, now: Date): void {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: schedule.timezone });
  } catch {
    throw new BadRequestError(`schedule.timezone "${schedule.timezone}" is not an IANA time zone`);
  }
  let cron: Cron;
  try {
    cron = cronFor(schedule);
  } catch (error) {
    throw new BadRequestError(`schedule.cron is invalid: ${(error as Error).message}`);
  }
  if (cron.nextRun(now) === null) throw new BadRequestError("schedule.cron never fires");
}

/** The first tick of `schedule` strictly after `after`, or null when there is none. */
export function nextTick(schedule: Schedule, after: Date): Date | null {
  return cronFor(schedule).nextRun(after);
}
