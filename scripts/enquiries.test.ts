/** `npm run enquiries` output: CSV for Excel (BOM, local time beside UTC), the list's count line, usage errors. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Enquiry } from '../src/core/contact/contact.ts';
import { countLine, formatEnquiries, localTime, UTF8_BOM } from './enquiries.ts';

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
    expect(header).toBe('id,received_at,received_local (Asia/Shanghai),name,email,company,message,notification');
    expect(first).toBe(
      '"e1","2026-11-24T12:15:03.000Z","2026-11-24 20:15:03","王小明","wang@example.com","示例科技","请联系我们，谢谢。","sent"',
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

describe('list and json', () => {
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
      const { code, stdout, stderr } = await run(['csv', '--output', file, '--time-zone', 'UTC'], {
        NETLIFY_LOCAL_BLOBS_DIR: path.join(dir, 'blobs'),
      });
      expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: '', stderr: `0 enquiries written to ${file}\n` });
      expect(readFileSync(file, 'utf8')).toBe(`${UTF8_BOM}id,received_at,received_local (UTC),name,email,company,message,notification\r\n`);
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
