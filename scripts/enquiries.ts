/**
 * `npm run enquiries -- [list|json|csv] [--production] [--output <file>] [--time-zone <zone>]`: read
 * contact enquiries from Blobs. Locally it opens the Blobs `npm start` writes (.netlify/blobs-serve,
 * or NETLIFY_LOCAL_BLOBS_DIR); with --production it reads the deployed site's Blobs
 * (NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN).
 *
 * The CSV starts with a UTF-8 byte order mark (Excel, Chinese Windows included, otherwise opens
 * UTF-8 as the ANSI code page and garbles 中文) and has the local time beside the UTC one. The
 * count goes to stderr for csv and json, so stdout stays one parseable document.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { load as loadYaml } from 'js-yaml';
import { parseBuildConfig } from '../src/core/config.ts';
import { readOperatorStore } from './runtime/operator-store.ts';
import type { Enquiry } from '../src/core/contact/contact.ts';
import type { Store } from '../src/core/kernel/store.ts';
import { escapeInvisibleCharacters, jsonWithEscapedInvisibles } from '../src/core/kernel/visible-text.ts';
import { answerHelp } from './usage.ts';

/** The site ID under which the local runtime (as @netlify/dev did) keeps an unlinked project's Blobs. */
const FORMATS = ['list', 'json', 'csv'] as const;
type Format = (typeof FORMATS)[number];

/**
 * Reads every enquiry, oldest first. A record that cannot be read (a half-written file a crashed
 * local server left, a hand-edited blob) is skipped and named on stderr, never fatal: every other
 * enquiry is still exported.
 */
export async function readEnquiries(
  store: Store,
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Promise<Enquiry[]> {
  const keys = (await store.list('enquiry/')).sort();
  const records = await Promise.all(
    keys.map(async (key) => {
      try {
        const found = await store.get<Enquiry>(key);
        if (found && typeof found.value === 'object' && found.value !== null && typeof found.value.id === 'string') return found.value;
        if (found) warn(`skipped ${escapeInvisibleCharacters(key)}: not an enquiry record`);
      } catch (error) {
        warn(`skipped ${escapeInvisibleCharacters(key)}: ${error instanceof Error ? error.message : String(error)}`);
      }
      return null;
    }),
  );
  return records.filter((r) => r !== null);
}

/** A visitor's text as a terminal or spreadsheet shows it: control and invisible characters as visible escapes. */
const shown = (text: string, options?: { keepLineBreaks?: boolean }): string => escapeInvisibleCharacters(text, options);

/** Excel reads a CSV as UTF-8 only when it starts with this byte order mark. */
export const UTF8_BOM = '\uFEFF';

/** The machine's time zone (TZ, else the system's). */
export const LOCAL_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** `2026-11-24 20:15:03` in `timeZone`, and its offset (`GMT+08:00`). */
export function localTime(iso: string, timeZone: string): { wall: string; offset: string } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'longOffset',
  }).formatToParts(new Date(iso));
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  return {
    wall: `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')}`,
    offset: part('timeZoneName') === 'GMT' ? 'GMT+00:00' : part('timeZoneName'),
  };
}

const CSV_COLUMNS = [
  'id',
  'received_at',
  'received_local',
  'name',
  'email',
  'company',
  'product',
  'product_name',
  'message',
  'notification',
] as const;

/** Product names by slug. */
export type ProductNames = ReadonlyMap<string, string>;

/**
 * The products' names by slug, from the front matter of `<contentDir>/products/*.md` (an enquiry stores the slug the
 * form sent). A file that does not parse is left out: its enquiries show the slug alone.
 */
export function readProductNames(contentDir: string): ProductNames {
  const dir = path.join(contentDir, 'products');
  const names = new Map<string, string>();
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.md'));
  } catch {
    return names;
  }
  for (const file of files) {
    const frontMatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(path.join(dir, file), 'utf8'))?.[1];
    try {
      const data = frontMatter === undefined ? undefined : (loadYaml(frontMatter) as { name?: unknown; slug?: unknown } | undefined);
      const slug = typeof data?.slug === 'string' ? data.slug : file.replace(/\.md$/, '');
      if (typeof data?.name === 'string') names.set(slug, data.name);
    } catch {
      // Not YAML: the build names it; here its enquiries show the slug.
    }
  }
  return names;
}

/** `Acme LLM Gateway (llm-gateway)`, or the slug alone when no product has it any more. */
const productLabel = (slug: string, productNames: ProductNames): string => {
  const name = productNames.get(slug);
  return name ? `${shown(name)} (${shown(slug)})` : shown(slug);
};

function csvCell(value: string, keepLineBreaks = false): string {
  // Quote always; double quotes inside; neutralise spreadsheet formulas (CSV injection) and terminal escapes.
  const visible = shown(value, { keepLineBreaks });
  const safe = /^[=+\-@\t\r]/.test(visible) ? `'${visible}` : visible;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** "1 enquiry" / "3 enquiries". */
export function countLine(count: number): string {
  return `${count} ${count === 1 ? 'enquiry' : 'enquiries'}`;
}

/**
 * The enquiries as `format`. csv: BOM, header, CRLF rows; `received_at` is UTC (ISO 8601),
 * `received_local` the wall-clock time in `timeZone` (`YYYY-MM-DD HH:mm:ss`, which Excel reads as a
 * date) with the zone in the header. list: a count line, then each enquiry with both times.
 */
export function formatEnquiries(
  enquiries: readonly Enquiry[],
  format: Format,
  timeZone: string = LOCAL_TIME_ZONE,
  productNames: ProductNames = new Map(),
): string {
  if (format === 'json') return `${jsonWithEscapedInvisibles(JSON.stringify(enquiries, null, 2))}\n`;
  if (format === 'csv') {
    const header = CSV_COLUMNS.map((c) => (c === 'received_local' ? `received_local (${timeZone})` : c)).join(',');
    const value = (e: Enquiry, c: (typeof CSV_COLUMNS)[number]): string =>
      c === 'notification'
        ? e.notification.status
        : c === 'received_local'
          ? localTime(e.received_at, timeZone).wall
          : c === 'product_name'
            ? (productNames.get(e.product ?? '') ?? '')
            : String(e[c] ?? '');
    const rows = enquiries.map((e) => CSV_COLUMNS.map((c) => csvCell(value(e, c), c === 'message')).join(','));
    return `${UTF8_BOM + [header, ...rows].join('\r\n')}\r\n`;
  }
  if (enquiries.length === 0) return 'No enquiries.\n';
  const lines = enquiries.map((e) => {
    const local = localTime(e.received_at, timeZone);
    const company = e.company ? ` (${shown(e.company)})` : '';
    const product = e.product ? `  about ${productLabel(e.product, productNames)}` : '';
    const who = `${shown(e.name)} <${shown(e.email)}>${company}${product}`;
    const message = shown(e.message.replace(/\s+/g, ' ').slice(0, 160));
    return `${shown(e.received_at)}  (${local.wall} ${local.offset})  ${shown(e.id)}  ${who}  [notification: ${shown(e.notification.status)}]\n    ${message}`;
  });
  // UTC's aliases (Etc/UTC, GMT) resolve to UTC: then the local time is the UTC one, named once.
  const zones = new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone === 'UTC' ? 'UTC' : `UTC and ${timeZone}`;
  return `${countLine(enquiries.length)}, oldest first; times in ${zones}\n\n${lines.join('\n')}\n`;
}

const USAGE = `Usage: npm run enquiries -- [list|json|csv] [--production] [--output <file>] [--time-zone <zone>]

Prints the contact enquiries, oldest first: from the local Blobs that npm start writes
(.netlify/blobs-serve, or NETLIFY_LOCAL_BLOBS_DIR), or with --production from the deployed site
(needs NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN).

  list             (default) a count line, then one enquiry per entry, UTC and local time, and
                   the product chosen (its name from content/products, and its slug)
  json             the stored records as a JSON array (the product as its slug)
  csv              UTF-8 with a byte order mark (opens correctly in Excel), UTC and local time,
                   the product's slug and name
  --output <file>  write to <file> instead of stdout (npm run prints its own banner on stdout:
                   use this, or npm run --silent, when redirecting)
  --time-zone <z>  the zone of the local time (IANA name, e.g. Asia/Shanghai; default ${LOCAL_TIME_ZONE})

For csv and json the count goes to stderr, so stdout (or the file) holds only the document.`;

class UsageError extends Error {}

function parseArgv(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: { production: { type: 'boolean' }, output: { type: 'string', short: 'o' }, 'time-zone': { type: 'string' } },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function parseOptions(args: string[]): { format: Format; production: boolean; output?: string; timeZone: string } {
  const parsed = parseArgv(args);
  const [format = 'list', ...rest] = parsed.positionals;
  if (!(FORMATS as readonly string[]).includes(format) || rest.length)
    throw new UsageError(`Unknown format "${parsed.positionals.join(' ')}": use ${FORMATS.join(', ')}`);
  const timeZone = parsed.values['time-zone'] ?? LOCAL_TIME_ZONE;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    throw new UsageError(`Unknown time zone "${timeZone}" (use an IANA name such as Asia/Shanghai)`); // RangeError text adds nothing
  }
  return { format: format as Format, production: parsed.values.production ?? false, output: parsed.values.output, timeZone };
}

async function main(args: string[]): Promise<number> {
  answerHelp(USAGE, args);
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`error: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  const enquiries = await readOperatorStore('enquiries', options.production, readEnquiries);
  const text = formatEnquiries(enquiries, options.format, options.timeZone, readProductNames(parseBuildConfig(process.env).contentDir));
  if (options.output) {
    writeFileSync(options.output, text);
    process.stderr.write(`${countLine(enquiries.length)} written to ${options.output}\n`);
  } else {
    process.stdout.write(text);
    if (options.format !== 'list') process.stderr.write(`${countLine(enquiries.length)}\n`);
  }
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
