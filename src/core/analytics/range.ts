/**
 * The date range an operator asks for, the same for `npm run stats` (`--from`, `--to`) and the
 * `/ops/` page (`?from=&to=`): UTC days, both included; by default the last
 * {@link DEFAULT_RANGE_DAYS} days up to and including today; at most {@link MAX_RANGE_DAYS} days, so
 * one report reads at most a year of day records.
 * @module
 */

/** The default range: this many days, ending today (UTC). */
export const DEFAULT_RANGE_DAYS = 7;
/** The longest range: a leap year. A report reads one record per day, so this bounds what one view costs. */
export const MAX_RANGE_DAYS = 366;

const DAY_MS = 86_400_000;
/** A refused value is repeated in the error up to this many characters (a day is 10). */
const MAX_ECHO_CHARS = 40;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A UTC day, `YYYY-MM-DD`. */
export type Day = string;

/** Why a range was refused: which field, and what is wrong with it. */
export type RangeProblem =
  | { kind: 'not-a-day'; field: 'from' | 'to'; value: string }
  | { kind: 'reversed'; from: Day; to: Day }
  | { kind: 'too-long'; from: Day; to: Day; days: number };

export type RangeResult = { ok: true; from: Day; to: Day; days: number } | { ok: false; problem: RangeProblem };

/** `day` plus `n` days (n may be negative). */
export function addDays(day: Day, n: number): Day {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included. */
export function daysInRange(from: Day, to: Day): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** `text` when it is a real calendar day written `YYYY-MM-DD` (2026-02-30 is not), else null. */
export function parseDay(text: string): Day | null {
  if (!DAY_PATTERN.test(text)) return null;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === text ? text : null;
}

/**
 * The range from what the operator gave (absent or empty: not given). Neither: the last
 * {@link DEFAULT_RANGE_DAYS} days to `today`. Only `from`: from it to today. Only `to`: the
 * {@link DEFAULT_RANGE_DAYS} days ending on it.
 */
export function parseRange(input: { from?: string | null; to?: string | null }, today: Day): RangeResult {
  const given = (value: string | null | undefined): string | null => (value === undefined || value === null || value === '' ? null : value);
  const fromText = given(input.from);
  const toText = given(input.to);
  const to = toText === null ? today : parseDay(toText);
  if (to === null) return { ok: false, problem: { kind: 'not-a-day', field: 'to', value: toText!.slice(0, MAX_ECHO_CHARS) } };
  const from = fromText === null ? addDays(to, -(DEFAULT_RANGE_DAYS - 1)) : parseDay(fromText);
  if (from === null) return { ok: false, problem: { kind: 'not-a-day', field: 'from', value: fromText!.slice(0, MAX_ECHO_CHARS) } };
  if (from > to) return { ok: false, problem: { kind: 'reversed', from, to } };
  const days = daysInRange(from, to);
  if (days > MAX_RANGE_DAYS) return { ok: false, problem: { kind: 'too-long', from, to, days } };
  return { ok: true, from, to, days };
}

/** The problem in plain English (the script's error line; the page words it in the reader's language). */
export function describeRangeProblem(problem: RangeProblem): string {
  switch (problem.kind) {
    case 'not-a-day':
      return `--${problem.field} "${problem.value}" is not a day: write YYYY-MM-DD (a UTC day), e.g. 2026-11-24`;
    case 'reversed':
      return `--from ${problem.from} is after --to ${problem.to}`;
    case 'too-long':
      return `${problem.from} to ${problem.to} is ${problem.days} days; the longest range is ${MAX_RANGE_DAYS} days`;
  }
}
