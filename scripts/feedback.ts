/**
 * `npm run feedback -- [list|json|csv] [--production] [--days <n>] [--output <file>]`: the feedback
 * agents and readers sent (src/core/feedback), newest first, from the local Blobs `npm start` writes
 * or, with --production, the deployed site's (NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN). Visitors'
 * text is shown with control and invisible characters escaped; CSV cells cannot start a formula.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type FeedbackRecord, feedbackBetween } from '../src/core/feedback/feedback.ts';
import type { Store } from '../src/core/kernel/store.ts';
import { escapeInvisibleCharacters, jsonWithEscapedInvisibles } from '../src/core/kernel/visible-text.ts';
import { UTF8_BOM } from './enquiries.ts';
import { readOperatorStore } from './runtime/operator-store.ts';
import { answerHelp } from './usage.ts';

const FORMATS = ['list', 'json', 'csv'] as const;
type Format = (typeof FORMATS)[number];
const DEFAULT_DAYS = 30;

const USAGE = `Usage: npm run feedback -- [list|json|csv] [--production] [--days <n>] [--output <file>]

Prints the feedback agents and readers sent (submit_feedback, POST /api/feedback, the form at the end
of each article), newest first: from the local Blobs that npm start writes, or with --production
from the deployed site (needs NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN).

  list             (default) one line per piece: when, kind, page, channel, then its text
  json             the stored records as a JSON array
  csv              UTF-8 with a byte order mark (opens correctly in Excel)
  --days <n>       the last n UTC days, today included (default ${DEFAULT_DAYS})
  --output <file>  write to <file> instead of stdout`;

const shown = (text: string): string => escapeInvisibleCharacters(text);
const csvCell = (value: string): string => {
  const visible = shown(value);
  return `"${(/^[=+\-@\t\r]/.test(visible) ? `'${visible}` : visible).replace(/"/g, '""')}"`;
};

/** The feedback as `format`. */
export function formatFeedback(records: readonly FeedbackRecord[], format: Format): string {
  if (format === 'json') return `${jsonWithEscapedInvisibles(JSON.stringify(records, null, 2))}\n`;
  const columns = ['received_at', 'kind', 'page', 'channel', 'text', 'id'] as const;
  if (format === 'csv')
    return `${UTF8_BOM + [columns.join(','), ...records.map((r) => columns.map((c) => csvCell(r[c])).join(','))].join('\r\n')}\r\n`;
  if (records.length === 0) return 'No feedback.\n';
  const lines = records.map(
    (r) =>
      `${shown(r.received_at)}  ${shown(r.kind)}  ${shown(r.page)}  (${shown(r.channel)})${r.text ? `\n    ${shown(r.text.replace(/\s+/g, ' '))}` : ''}`,
  );
  return `${records.length} piece${records.length === 1 ? '' : 's'} of feedback, newest first (UTC)\n\n${lines.join('\n')}\n`;
}

/** The UTC day `days - 1` days before `nowMs`, and today. */
export function lastDays(days: number, nowMs: number): { from: string; to: string } {
  const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
  return { from: day(nowMs - (days - 1) * 86_400_000), to: day(nowMs) };
}

async function main(args: string[]): Promise<number> {
  answerHelp(USAGE, args);
  let parsed: ReturnType<
    typeof parseArgs<{
      allowPositionals: true;
      options: { production: { type: 'boolean' }; days: { type: 'string' }; output: { type: 'string'; short: 'o' } };
    }>
  >;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { production: { type: 'boolean' }, days: { type: 'string' }, output: { type: 'string', short: 'o' } },
    });
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const [format = 'list', ...rest] = parsed.positionals;
  const days = Number(parsed.values.days ?? DEFAULT_DAYS);
  if (!(FORMATS as readonly string[]).includes(format) || rest.length || !Number.isInteger(days) || days < 1 || days > 3660) {
    process.stderr.write(`error: use one of ${FORMATS.join(', ')} and --days 1 to 3660\n\n${USAGE}\n`);
    return 2;
  }
  const { from, to } = lastDays(days, Date.now());
  const read = (store: Store) => feedbackBetween(store, from, to, (line) => process.stderr.write(`${line}\n`));
  const records = await readOperatorStore('feedback', parsed.values.production ?? false, read);
  const text = formatFeedback(records, format as Format);
  if (parsed.values.output) writeFileSync(parsed.values.output, text);
  else process.stdout.write(text);
  return 0;
}

if (import.meta.main) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
