import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { ErrorCode } from "@costplugin/proto";
import { PluginError } from "./plugin-error.js";

/** A validated half-open time range `[startMs, endMs)` in epoch milliseconds. */
export interface MillisecondRange {
  readonly startMs: number;
  readonly endMs: number;
}

// The range RFC 3339 (and the protobuf JSON mapping) can express: 0001-01-01 to 9999-12-31.
const minSeconds = -62_135_596_800n;
const maxSeconds = 253_402_300_799n;

/** Throws INVALID_TIME_RANGE naming `field`. */
export function invalidTimeRange(field: string, message: string): PluginError {
  return new PluginError(ErrorCode.INVALID_TIME_RANGE, message, { details: { field } });
}

/** Converts a required Timestamp to epoch milliseconds, rejecting a missing or invalid one. */
export function millisecondsFromTimestamp(value: Timestamp | undefined, field: string): number {
  if (value === undefined) {
    throw invalidTimeRange(field, `${field} is required`);
  }
  if (value.seconds < minSeconds || value.seconds > maxSeconds) {
    throw invalidTimeRange(field, `${field} is outside 0001-01-01 to 9999-12-31`);
  }
  if (!Number.isInteger(value.nanos) || value.nanos < 0 || value.nanos > 999_999_999) {
    throw invalidTimeRange(field, `${field} has nanos outside 0 to 999999999`);
  }
  return Number(value.seconds) * 1000 + value.nanos / 1_000_000;
}

/** What `validateTimeRange` needs to know about the fields it checks. */
export interface TimeRangeFields {
  /** Field name used in messages for the start, e.g. `start` or `time_range.start`. */
  readonly startField: string;
  /** Field name used in messages for the end. */
  readonly endField: string;
  /** Longest allowed span in milliseconds; omitted: unbounded. */
  readonly maxSpanMs?: number;
}

/**
 * Validates a half-open range `[start, end)`: both present and valid, end strictly after start
 * (an empty range holds nothing to report), and the span not above `maxSpanMs`.
 */
export function validateTimeRange(
  start: Timestamp | undefined,
  end: Timestamp | undefined,
  fields: TimeRangeFields,
): MillisecondRange {
  const startMs = millisecondsFromTimestamp(start, fields.startField);
  const endMs = millisecondsFromTimestamp(end, fields.endField);
  if (endMs < startMs) {
    throw invalidTimeRange(
      fields.endField,
      `${fields.endField} (${iso(endMs)}) is before ${fields.startField} (${iso(startMs)})`,
    );
  }
  if (endMs === startMs) {
    throw invalidTimeRange(
      fields.endField,
      `${fields.endField} equals ${fields.startField} (${iso(startMs)}); the range is half-open, so it must end after it starts`,
    );
  }
  if (fields.maxSpanMs !== undefined && endMs - startMs > fields.maxSpanMs) {
    throw invalidTimeRange(
      fields.endField,
      `the range from ${iso(startMs)} to ${iso(endMs)} is longer than ${days(fields.maxSpanMs)} days, the most allowed`,
    );
  }
  return { startMs, endMs };
}

const dayMs = 86_400_000;

function days(ms: number): string {
  return String(Math.round((ms / dayMs) * 100) / 100);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
