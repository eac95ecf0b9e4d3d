/** `npm run enquiries` output: CSV for Excel (BOM, local time beside UTC), the list's count line, usage errors. */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Enquiry } from '../src/core/contact/contact.ts';
import { memoryStore } from '../src/core/kernel/memory-store.ts';
import { countLine, formatEnquiries, localTime, readEnquiries, readProductNames, UTF8_BOM } from './enquiries.ts';

const enquiry = (id: string, received_at: string, extra: Partial<Enquiry> = {}): Enquiry =>
  ({
    id,
    received_at,
    name: '王小明',
    email: 'wang@example.com',
    company: '示例科技',
    message: '请联系我们，谢谢。',
    client_ip_digest: 'd',
    user_agent: 'ua',
    notification: { status: 'sent', attempts: 1 },
    ...extra,
  }) as Enquiry;

const TWO = [enquiry('e1', '2026-11-24T12:15:03.000Z'), enquiry('e2', '2026-11-24T16:30:00.000Z', { name: '=cmd', company: undefined })];

describe('csv', () => {
  it('starts with a UTF-8 BOM, has UTC and the local wall-clock time, and keeps Chinese text intact', () => {
    const csv = formatEnquiries(TWO, 'csv', 'Asia/Shanghai');
    expect(csv.startsWith(UTF8_BOM)).toBe(true);
    const [header, first, second] = csv.slice(1).split('\r\n');
    expect(header).toBe('id,received_at,received_local (Asia/Shanghai),name,email,company,product,product_name,message,notification');
    expect(first).toBe(
      '"e1","2026-11-24T12:15:03.000Z","2026-11-24 20:15:03","王小明","wang@example.com","示例科技","","","请联系我们，谢谢。","sent"',
    );
    expect(second).toContain('"2026-11-25 00:30:00","\'=cmd"'); // the next local day; formula neutralised
    expect(new TextEncoder().encode(csv).slice(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
  });

  it('local time follows the zone, DST included', () => {
    expect(localTime('2026-07-01T12:00:00Z', 'Europe/Berlin')).toEqual({ wall: '2026-07-01 14:00:00', offset: 'GMT+02:00' });
    expect(localTime('2026-12-01T12:00:00Z', 'Europe/Berlin')).toEqual({ wall: '2026-12-01 13:00:00', offset: 'GMT+01:00' });
    expect(localTime('2026-12-01T12:00:00Z', 'UTC')).toEqual({ wall: '2026-12-01 12:00:00', offset: 'GMT+00:00' });
  });
});

describe("what a visitor typed cannot act on the operator's terminal", () => {
  // Stored before the form refused them, or by a hand: screen clearing, a window title, an OSC 8 link, a C1 CSI,
  // a forged line, a bidi override and invisible tag characters.
  const hostile = enquiry('e3', '2026-11-24T12:00:00.000Z', {
    name: '\u001b[2J\u001b]0;owned\u0007Eve',
    email: 'eve@example.com\n2026-11-24T00:00:00.000Z  fake line',
    company: '\u001b]8;;https://evil.example\u001b\\Acme\u001b]8;;\u001b\\',
    message: 'line one\nline two \u009b31m red \u202Egnp.exe \u{E0041}\u{E0042}',
  });

  it.each(['list', 'csv', 'json'] as const)('%s: no control, bidi or invisible character reaches the output raw', (format) => {
    const text = formatEnquiries([hostile], format, 'UTC');
    // Line breaks stay only where the format itself puts them (and inside a CSV message cell).
    const raw = text.replace(/^\uFEFF/, '').replace(/[\r\n\t]/g, '');
    expect(raw).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
    expect(text).toContain(format === 'json' ? '\\u001b' : '\\u{1B}');
  });

  it('list: one enquiry stays two lines (a newline in a field cannot forge an entry)', () => {
    const lines = formatEnquiries([hostile], 'list', 'UTC').trimEnd().split('\n');
    expect(lines.length).toBe(4); // count line, blank line, the entry's two lines
  });

  it('json: the escaped document is still the same records', () => {
    expect(JSON.parse(formatEnquiries([hostile], 'json'))).toEqual([hostile]);
  });
});

describe('reading', () => {
  it('a record that does not parse is skipped and named; every other enquiry is exported', async () => {
    const store = memoryStore();
    await store.set('enquiry/2026-11-24T12:00:00.000Z/a', enquiry('a', '2026-11-24T12:00:00.000Z'));
    await store.set('enquiry/2026-11-24T13:00:00.000Z/b', enquiry('b', '2026-11-24T13:00:00.000Z'));
    const broken = {
      ...store,
      get: async <T>(key: string) =>
        key.endsWith('/b') ? Promise.reject(new SyntaxError('Unexpected end of JSON input')) : store.get<T>(key),
    };
    await store.set('enquiry/2026-11-24T14:00:00.000Z/c', { not: 'an enquiry' });
    const warnings: string[] = [];
    const read = await readEnquiries(broken, (line) => warnings.push(line));
    expect(read.map((e) => e.id)).toEqual(['a']);
    expect(warnings).toEqual([
      'skipped enquiry/2026-11-24T13:00:00.000Z/b: Unexpected end of JSON input',
      'skipped enquiry/2026-11-24T14:00:00.000Z/c: not an enquiry record',
    ]);
  });
});

describe('the product the visitor chose', () => {
  const names = new Map([['llm-gateway', 'Acme LLM Gateway']]);
  const chosen = [
    enquiry('e1', '2026-11-24T12:15:03.000Z', { product: 'llm-gateway' }),
    enquiry('e2', '2026-11-24T13:00:00.000Z', { product: 'retired-product' }),
  ];

  it('csv carries its slug and its name (empty when no product has the slug any more)', () => {
    const [, first, second] = formatEnquiries(chosen, 'csv', 'UTC', names).slice(1).split('\r\n');
    expect(first).toContain('"示例科技","llm-gateway","Acme LLM Gateway","请联系我们，谢谢。"');
    expect(second).toContain('"示例科技","retired-product","","请联系我们，谢谢。"');
  });

  it('list names it, with its slug', () => {
    const list = formatEnquiries(chosen, 'list', 'UTC', names);
    expect(list).toContain('王小明 <wang@example.com> (示例科技)  about Acme LLM Gateway (llm-gateway)  [notification: sent]');
    expect(list).toContain('(示例科技)  about retired-product  [notification');
    expect(formatEnquiries(TWO, 'list', 'UTC', names)).not.toContain('about');
  });

  it('json keeps the stored slug', () => {
    expect(JSON.parse(formatEnquiries(chosen, 'json', 'UTC', names))[0].product).toBe('llm-gateway');
  });

  it('names come from the products in the content folder', () => {
    expect(readProductNames(path.resolve(import.meta.dirname, '..', 'content')).get('llm-gateway')).toBe('Acme LLM Gateway');
    expect(readProductNames('/nonexistent').size).toBe(0);
  });
});

describe('list and json', () => {
  it('list names UTC once when the local zone is UTC', () => {
    expect(formatEnquiries(TWO, 'list', 'UTC').split('\n')[0]).toBe('2 enquiries, oldest first; times in UTC');
    expect(formatEnquiries(TWO, 'list', 'Etc/UTC').split('\n')[0]).toBe('2 enquiries, oldest first; times in UTC');
  });

  it('list starts with the count and shows both times', () => {
    const list = formatEnquiries(TWO, 'list', 'Asia/Shanghai');
    expect(list.split('\n')[0]).toBe('2 enquiries, oldest first; times in UTC and Asia/Shanghai');
    expect(list).toContain(
      '2026-11-24T12:15:03.000Z  (2026-11-24 20:15:03 GMT+08:00)  e1  王小明 <wang@example.com> (示例科技)  [notification: sent]',
    );
    expect(formatEnquiries([], 'list')).toBe('No enquiries.\n');
  });

  it('json is the records alone (the count goes to stderr)', () => {
    expect(JSON.parse(formatEnquiries(TWO, 'json'))).toEqual(TWO);
    expect([countLine(0), countLine(1), countLine(2)]).toEqual(['0 enquiries', '1 enquiry', '2 enquiries']);
  });
});

describe('the command line', () => {
  const run = (args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) =>
      execFile(
        process.execPath,
        [path.join(import.meta.dirname, 'enquiries.ts'), ...args],
        { env: { ...process.env, ...env } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      ),
    );

  it('--output writes the CSV (BOM first) to the file and the count to stderr, nothing to stdout', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'enquiries-'));
    try {
      const file = path.join(dir, 'out.csv');
      mkdirSync(path.join(dir, 'blobs'));
      const { code, stdout, stderr } = await run(['csv', '--output', file, '--time-zone', 'UTC'], {
        NETLIFY_LOCAL_BLOBS_DIR: path.join(dir, 'blobs'),
      });
      expect({ code, stdout, stderr }).toEqual({
        code: 0,
        stdout: '',
        stderr: `Local Blobs: ${path.join(dir, 'blobs')}\n0 enquiries written to ${file}\n`,
      });
      expect(readFileSync(file, 'utf8')).toBe(
        `${UTF8_BOM}id,received_at,received_local (UTC),name,email,company,product,product_name,message,notification\r\n`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [['xml'], 'Unknown format "xml"'],
    [['csv', '--time-zone', 'Mars/Base'], 'Unknown time zone "Mars/Base"'],
    [['--bogus'], "Unknown option '--bogus'"],
  ])('%j is a usage error, exit 2, nothing on stdout', async (args, message) => {
    const { code, stdout, stderr } = await run(args);
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toContain(message);
    expect(stderr).toContain('Usage: npm run enquiries');
  });
});

/** A wrong NETLIFY_LOCAL_BLOBS_DIR (stranger s9b, 6): the operator commands name it, never create it, and print no stack. */
describe('the operator commands with a wrong local Blobs folder', () => {
  const command = (
    script: string,
    args: string[],
    env: Record<string, string>,
  ): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) =>
      execFile(
        process.execPath,
        [path.join(import.meta.dirname, script), ...args],
        { env: { ...process.env, ...env } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      ),
    );
  const commands: [string, string[]][] = [
    ['enquiries.ts', []],
    ['stats.ts', []],
    ['feedback.ts', []],
  ];

  it.each(commands)('%s: a folder that does not exist is an error naming it and the default, and is not created', async (script, args) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'operator-blobs-'));
    try {
      const missing = path.join(dir, 'nonexistent');
      const { code, stdout, stderr } = await command(script, args, { NETLIFY_LOCAL_BLOBS_DIR: missing });
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toContain(`NETLIFY_LOCAL_BLOBS_DIR (${missing}) does not exist`);
      expect(stderr).toContain(path.join('.netlify', 'blobs-serve'));
      expect(stderr).not.toMatch(/^\s+at /m);
      expect(existsSync(missing)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([...commands, ['scheduled.ts', ['store-sweep']] as [string, string[]]])(
    '%s: a file is one clear line, no stack, exit 1',
    async (script, args) => {
      const dir = mkdtempSync(path.join(tmpdir(), 'operator-blobs-'));
      try {
        const file = path.join(dir, 'a-file');
        writeFileSync(file, '');
        const { code, stderr } = await command(script, args, { NETLIFY_LOCAL_BLOBS_DIR: file });
        expect(code).toBe(1);
        expect(stderr.trim().split('\n')).toHaveLength(1);
        expect(stderr).toContain(`NETLIFY_LOCAL_BLOBS_DIR (${file}) is a file, not a folder`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('names the folder it read when there is nothing in it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'operator-blobs-'));
    try {
      const { code, stdout, stderr } = await command('enquiries.ts', [], { NETLIFY_LOCAL_BLOBS_DIR: dir });
      expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: 'No enquiries.\n', stderr: `Local Blobs: ${dir}\n` });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
