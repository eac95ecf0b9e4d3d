/** The daily scheduled publication against a build hook served on loopback (Netlify's API stands in). */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishScheduled } from './scheduled-publish.ts';

const received: { method: string; url: string; userAgent: string }[] = [];
let status = 200;
const hook = createServer((request: IncomingMessage, response) => {
  received.push({ method: request.method!, url: request.url!, userAgent: request.headers['user-agent'] ?? '' });
  response.writeHead(status).end();
});
let hookUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/build_hooks/abc123`;
});
afterAll(() => new Promise<void>((resolve) => hook.close(() => resolve())));

const base = { today: '2026-12-01', fetch, userAgent: 'agent-ready-site/1 (+https://example.com)' };

describe('publishScheduled', () => {
  it('asks for nothing while no held-back day has come, and names the next one', async () => {
    received.length = 0;
    expect(await publishScheduled({ ...base, days: ['2026-12-02', '2027-01-05'], buildHookUrl: hookUrl })).toEqual({
      outcome: 'nothing-due',
      next: '2026-12-02',
    });
    expect(await publishScheduled({ ...base, days: [], buildHookUrl: hookUrl })).toEqual({ outcome: 'nothing-due', next: null });
    expect(received).toEqual([]);
  });

  it('posts to the build hook once a day has come (a missed one too), with the days in the deploy title', async () => {
    received.length = 0;
    status = 200;
    const outcome = await publishScheduled({ ...base, days: ['2026-11-30', '2026-12-01', '2026-12-09'], buildHookUrl: hookUrl });
    expect(outcome).toEqual({ outcome: 'build-requested', due: ['2026-11-30', '2026-12-01'], status: 200 });
    expect(received).toHaveLength(1);
    expect(received[0]!.method).toBe('POST');
    const url = new URL(received[0]!.url, 'http://x');
    expect(url.pathname).toBe('/build_hooks/abc123');
    expect(url.searchParams.get('trigger_title')).toBe('Scheduled publication (2026-11-30, 2026-12-01)');
    expect(received[0]!.userAgent).toBe(base.userAgent);
  });

  it('says what is due when no build hook is set, and reports a hook that fails or cannot be reached', async () => {
    received.length = 0;
    expect(await publishScheduled({ ...base, days: ['2026-12-01'], buildHookUrl: null })).toEqual({
      outcome: 'no-build-hook',
      due: ['2026-12-01'],
    });
    expect(received).toEqual([]);
    status = 404;
    expect(await publishScheduled({ ...base, days: ['2026-12-01'], buildHookUrl: hookUrl })).toEqual({
      outcome: 'build-hook-failed',
      due: ['2026-12-01'],
      status: 404,
    });
    status = 200;
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = await publishScheduled({ ...base, days: ['2026-12-01'], buildHookUrl: `http://127.0.0.1:${port}/build_hooks/x` });
    expect(unreachable).toMatchObject({ outcome: 'build-hook-failed', due: ['2026-12-01'] });
    expect(unreachable).toHaveProperty('error');
  });
});
