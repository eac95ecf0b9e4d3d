/**
 * `npm run check:agent-ready` as a child process against the fixture site on a real loopback HTTP
 * server: exit codes, the table, the JSON report, usage errors and an unreachable site.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS } from '../registry.ts';
import type { Report } from '../score.ts';
import { createProgress } from './cli.ts';
import { startFixtureServer, TOOL_NAME } from '../test/good-site.ts';

const SCRIPT = path.join(import.meta.dirname, 'cli.ts');

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

let site: Awaited<ReturnType<typeof startFixtureServer>>;

beforeAll(async () => {
  site = await startFixtureServer();
});

afterAll(async () => {
  await site?.close();
});

describe('against the good fixture site', () => {
  it('exits 0 and prints every check as PASS, WebMCP included (real Chromium)', async () => {
    const { code, stdout, stderr } = await cli([site.origin]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(`Agent readiness of ${site.origin}`);
    expect(stdout).not.toMatch(/FAIL/);
    expect(stdout.match(/fix:/g)).toHaveLength(1); // DNS-AID's records to add
    expect(stdout).toMatch(new RegExp(`PASS {2}WebMCP +/ registers 1 WebMCP tool\\(s\\): ${TOOL_NAME}`));
    expect(stdout).toContain('Score 100/100 (17 pass, 0 fail, 1 neutral');
    expect(stdout).toMatch(/ -- {3}DNS-AID \* +not checked: 127\.0\.0\.1 is not a public DNS name/);
    expect(stdout).toContain('Level 5: Agent-Native');
  });

  it('--json prints a report that parses, with score, level and every check', async () => {
    const { code, stdout } = await cli([site.origin, '--json', '--no-browser']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as Report;
    expect(report).toMatchObject({
      url: site.origin,
      score: 100,
      level: 5,
      levelName: 'Agent-Native',
      counts: { pass: 16, fail: 0, neutral: 2 },
      nextLevel: null,
    });
    expect(report.checks).toHaveLength(18);
    expect(report.checks.filter((c) => ['a2aAgentCard', 'webBotAuth'].includes(c.id)).map((c) => c.status)).toEqual(['pass', 'pass']);
    expect(report.checks.find((c) => c.id === 'webMcp')).toMatchObject({ status: 'neutral', reason: 'not checked: no browser available' });
    expect(Date.parse(report.checkedAt)).not.toBeNaN();
  });

  it('audits the origin of a URL with a path, and says so', async () => {
    const { code, stderr } = await cli([`${site.origin}/docs/page?x=1`, '--no-browser']);
    expect(code).toBe(0);
    expect(stderr).toBe(`note: auditing the origin ${site.origin} (the checks are site-wide; /docs/page?x=1 is ignored)\n`);
  });
});

describe('when a check fails', () => {
  it('exits 1, prints the failing check with its fix, and scores it', async () => {
    const original = site.routes.get('/auth.md')!;
    site.routes.set('/auth.md', () => new Response('## auth.md\n', { headers: { 'content-type': 'text/markdown' } }));
    try {
      const table = await cli([site.origin, '--no-browser']);
      expect(table.code).toBe(1);
      expect(table.stdout).toMatch(/FAIL {2}auth\.md \+ agent_auth +\/auth\.md is missing the expected Auth\.md heading/);
      expect(table.stdout).toMatch(/\n {6,}fix: Serve \/auth\.md/);
      const json = await cli([site.origin, '--json', '--no-browser']);
      expect(json.code).toBe(1);
      const report = JSON.parse(json.stdout) as Report;
      expect(report.checks.filter((c) => c.status === 'fail').map((c) => c.id)).toEqual(['authMd']);
      expect(report.score).toBe(93); // 14 of 15 scored (llms.txt and DNS-AID unscored, WebMCP neutral)
      expect(report.level).toBe(5); // Web Bot Auth and all four integration documents still pass
    } finally {
      site.routes.set('/auth.md', original);
    }
  });

  it('a page that registers no WebMCP tool fails the WebMCP check in Chromium', async () => {
    const original = site.routes.get('/')!;
    site.routes.set('/', async (req) => {
      const res = await original(req);
      if (!res.headers.get('content-type')!.startsWith('text/html')) return res;
      return new Response((await res.text()).replace(/<script>[\s\S]*?<\/script>/, ''), { headers: res.headers });
    });
    try {
      const { code, stdout } = await cli([site.origin]);
      expect(code).toBe(1);
      expect(stdout).toMatch(/FAIL {2}WebMCP +no WebMCP tool was registered while \/ loaded/);
      expect(stdout.match(/FAIL/g)).toHaveLength(1);
    } finally {
      site.routes.set('/', original);
    }
  });
});

describe('progress', () => {
  it('--progress writes one line per check to stderr and leaves the JSON on stdout untouched', async () => {
    const quiet = await cli([site.origin, '--json', '--no-browser']);
    const loud = await cli([site.origin, '--json', '--no-browser', '--progress']);
    expect(quiet.stderr).toBe('');
    expect(loud.code).toBe(0);
    const lines = loud.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(CHECKS.length);
    expect(lines[0]).toBe(`[1/${CHECKS.length}] robotsTxt: pass`);
    expect(lines.at(-1)).toBe(`[${CHECKS.length}/${CHECKS.length}] dnsAid: neutral`);
    const strip = (r: Report) => ({ ...r, checkedAt: '' });
    expect(strip(JSON.parse(loud.stdout) as Report)).toEqual(strip(JSON.parse(quiet.stdout) as Report));
  });

  it('on a terminal it rewrites one line and clears it at the end', () => {
    const written: string[] = [];
    const progress = createProgress({ isTTY: true, columns: 30, write: (t: string) => written.push(t) }, false);
    progress.step('[1/19] robots.txt …');
    progress.done('robotsTxt', 'pass', 0, 19);
    progress.step('[2/19] a title far longer than the terminal is wide');
    progress.clear();
    expect(written).toEqual(['\r\x1b[2K[1/19] robots.txt …', '\r\x1b[2K[2/19] a title far longer tha', '\r\x1b[2K']);
    const piped: string[] = [];
    const silent = createProgress({ isTTY: false, write: (t: string) => piped.push(t) }, false);
    silent.step('x');
    silent.done('robotsTxt', 'pass', 0, 19);
    silent.clear();
    expect(piped).toEqual([]);
  });
});

describe('usage and reachability', () => {
  it.each([
    [[], 'missing <url>'],
    [['a', 'b'], 'give exactly one URL'],
    [['example.com'], 'not a URL: example.com'],
    [['ftp://example.com'], 'only http and https URLs'],
    [['https://example.com', '--bogus'], "Unknown option '--bogus'"],
    [['https://example.com', '--timeout-ms', 'soon'], '--timeout-ms must be a positive integer'],
    [['https://example.com', '--doh', 'resolver'], "--doh needs the resolver's http(s) URL"],
  ])('%j → usage error, exit 2', async (args, message) => {
    const { code, stdout, stderr } = await cli(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
    expect(stderr).toContain('Usage: npm run check:agent-ready -- <url>');
  });

  it('--help prints the usage and exits 0', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: .*\n[\s\S]*Exit codes: 0 no check failed, 1 a check failed, 2 usage error, 3 site unreachable/);
  });

  it('an unreachable site is a one-line error and exit 3, with a JSON error under --json', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { code, stdout, stderr } = await cli([`http://127.0.0.1:${port}`, '--json']);
    expect(code).toBe(3);
    expect(stderr).toBe(`error: cannot reach http://127.0.0.1:${port}: ECONNREFUSED\n`);
    expect(JSON.parse(stdout)).toEqual({
      url: `http://127.0.0.1:${port}`,
      error: 'unreachable',
      message: `cannot reach http://127.0.0.1:${port}: ECONNREFUSED`,
    });
  });

  it('a home page that redirects to another origin is audited there, with a note', async () => {
    let redirector: Server | undefined;
    try {
      redirector = createServer((_req, res) => void res.writeHead(301, { location: `${site.origin}/` }).end());
      await new Promise<void>((resolve) => redirector!.listen(0, '127.0.0.1', resolve));
      const from = `http://127.0.0.1:${(redirector.address() as { port: number }).port}`;
      const { code, stdout, stderr } = await cli([from, '--json', '--no-browser']);
      expect(stderr).toBe(`note: ${from}/ redirects to ${site.origin}/; auditing ${site.origin}\n`);
      expect(code).toBe(0);
      expect((JSON.parse(stdout) as Report).url).toBe(site.origin);
    } finally {
      await new Promise<void>((resolve) => (redirector ? redirector.close(() => resolve()) : resolve()));
    }
  });
});
