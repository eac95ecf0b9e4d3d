/**
 * The command line as a child process against the fixture sites on real loopback HTTP servers: exit codes,
 * the human report, the JSON report, usage errors, an unreachable site, WebMCP in a real Chromium.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUBRICS, type ScanReport } from '../scan.ts';
import { createProgress } from './cli.ts';
import { startFixtureServer, TOOL_NAME } from '../test/good-site.ts';
import { poorRoutes } from '../test/poor-site.ts';

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

const O_RUBRICS = RUBRICS.map((r) => r.id);
const TOTAL_CHECKS = RUBRICS.reduce((n, r) => n + r.checks.length, 0);

describe('against the good fixture site', () => {
  it('exits 0 and prints every rubric with its version, WebMCP seen in Chromium, and a summary per rubric', async () => {
    const { code, stdout, stderr } = await cli([site.origin, '--behaviour']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(`Agent readiness of ${site.origin}`);
    expect(stdout).not.toMatch(/FAIL|WARN/);
    for (const rubric of RUBRICS) expect(stdout).toContain(`${rubric.name} ${rubric.version}`);
    expect(stdout).toMatch(new RegExp(`PASS {2}webMcp +/ registers 1 WebMCP tool\\(s\\): ${TOOL_NAME}`));
    expect(stdout).toMatch(/PASS {2}webmcp-registered-tools \* +\/ registers search_docs/);
    expect(stdout).toMatch(/\nSummary\n {2}PASS {2}isitagentready +Level 5 \(Agent-Native\), score 100\/100\n/);
    expect(stdout).toMatch(/ {2}PASS {2}behaviour +7 behaviour\(s\) exercised, all work/);
  });

  it('--json prints one report stamped with the checker and every rubric version', async () => {
    const { code, stdout } = await cli([site.origin, '--json', '--no-browser', '--behaviour']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as ScanReport;
    expect(report).toMatchObject({
      url: site.origin,
      checker: { name: 'agent-ready-check', version: expect.stringMatching(/^\d+\.\d+\.\d+$/) },
      options: { behaviour: true, browser: false, pages: [`${site.origin}/`, `${site.origin}/docs/guide`, `${site.origin}/docs/glossary`] },
      counts: { fail: 0, warn: 0 },
    });
    expect(report.rubrics.map((r) => [r.id, r.version])).toEqual(RUBRICS.map((r) => [r.id, r.version]));
    expect(report.rubrics[0]!.summary).toMatchObject({ level: 5, score: 100 });
    expect(report.rubrics.flatMap((r) => r.checks)).toHaveLength(TOTAL_CHECKS);
    expect(Date.parse(report.checkedAt)).not.toBeNaN();
  });

  it('--rubric runs only the named rubrics', async () => {
    const { code, stdout } = await cli([site.origin, '--json', '--no-browser', '--rubric', 'lighthouse,cache-safety']);
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as ScanReport).rubrics.map((r) => r.id)).toEqual(['lighthouse', 'cache-safety']);
  });

  it('audits the origin of a URL with a path, and says so', async () => {
    const { code, stderr } = await cli([`${site.origin}/docs/page?x=1`, '--no-browser', '--rubric', 'isitagentready']);
    expect(code).toBe(0);
    expect(stderr).toBe(`note: auditing the origin ${site.origin} (the checks are site-wide; /docs/page?x=1 is ignored)\n`);
  });
});

describe('against the poor fixture site', () => {
  let poor: Awaited<ReturnType<typeof startFixtureServer>>;
  beforeAll(async () => {
    poor = await startFixtureServer(poorRoutes);
  });
  afterAll(async () => {
    await poor?.close();
  });

  it("exits 1; each failure is printed with its fix, and the summary names each rubric's verdict", async () => {
    const { code, stdout } = await cli([poor.origin, '--no-browser', '--behaviour']);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /FAIL {2}sitemap +GET \/sitemap-index\.xml → 200 text\/html: expected application\/xml\n {10,}fix: Serve an XML sitemap/,
    );
    expect(stdout).toMatch(
      /FAIL {2}robots-txt +robots\.txt blocks GPTBot from \/\n {10,}fix: Remove the "Disallow: \/" rules for AI agents/,
    );
    expect(stdout).toMatch(/FAIL {2}interleaved-requests +0 of 1 sampled page\(s\) pass; \/: #1 markdown agent got html/);
    expect(stdout).toMatch(/ {10,}> #1 markdown agent \(Accept: text\/markdown\) → 200 text\/html \(html\)/);
    expect(stdout).toMatch(/\nSummary\n {2}FAIL {2}isitagentready +Level 0 \(Not Ready\), score 14\/100/);
    expect(stdout).toMatch(/ {2}FAIL {2}agentready-org +not conformant \(AR-CAPA-08\)/);
  });

  it('--json carries the same failures', async () => {
    const { code, stdout } = await cli([poor.origin, '--json', '--no-browser']);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as ScanReport;
    expect(report.counts.fail).toBeGreaterThan(30);
    expect(report.rubrics.find((r) => r.id === 'isitagentready')!.summary).toMatchObject({ level: 0 });
  });
});

describe('a check that fails in Chromium', () => {
  it('a page that registers no WebMCP tool fails the WebMCP check', async () => {
    const original = site.routes.get('/')!;
    site.routes.set('/', async (req) => {
      const res = await original(req);
      if (!res.headers.get('content-type')!.startsWith('text/html')) return res;
      return new Response((await res.text()).replace(/<script>[\s\S]*?<\/script>/, ''), { headers: res.headers });
    });
    try {
      const { code, stdout } = await cli([site.origin, '--rubric', 'isitagentready']);
      expect(code).toBe(1);
      expect(stdout).toMatch(/FAIL {2}webMcp +no WebMCP tool was registered while \/ loaded/);
      expect(stdout.match(/FAIL/g)).toHaveLength(2); // the check, and the rubric's line in the summary
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
    expect(lines).toHaveLength(TOTAL_CHECKS);
    expect(lines[0]).toBe(`[1/${TOTAL_CHECKS}] isitagentready robotsTxt: pass`);
    expect(lines.at(-1)).toBe(`[${TOTAL_CHECKS}/${TOTAL_CHECKS}] behaviour markdown-twins: pass`);
    // Everything but the time stamp and the measured latency is the same with progress and without.
    const strip = (json: string) =>
      JSON.parse(json.replace(/"checkedAt": "[^"]+"/, '"checkedAt": ""').replace(/\d+ ms/g, 'N ms')) as ScanReport;
    expect(strip(loud.stdout)).toEqual(strip(quiet.stdout));
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
    [['https://example.com', '--rubric', 'bogus'], `unknown rubric bogus; known: ${O_RUBRICS.join(', ')}`],
    [['https://example.com', '--pages', '0'], '--pages must be an integer from 1 to 100'],
    [['https://example.com', '--budget-s', '0'], '--budget-s must be an integer number of seconds from 1 to 86400, not 0'],
    [['https://example.com', '--budget-s', '0.5'], '--budget-s must be an integer number of seconds from 1 to 86400, not 0.5'],
    [['https://example.com', '--budget-s', '0x10'], '--budget-s must be an integer number of seconds from 1 to 86400, not 0x10'],
    [['https://example.com', '--budget-s', '1e3'], '--budget-s must be an integer number of seconds from 1 to 86400, not 1e3'],
  ])('%j → usage error, exit 2', async (args, message) => {
    const { code, stdout, stderr } = await cli(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
    expect(stderr).toContain('Usage: agent-ready-check <url> [options]');
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

  it('--behaviour writes nothing to an origin the home page redirects to: it is not run there, and a note says so', async () => {
    let redirector: Server | undefined;
    const methods: string[] = [];
    const count = (req: { method?: string }) => void methods.push(req.method ?? '');
    site.server.on('request', count);
    try {
      redirector = createServer((_req, res) => void res.writeHead(302, { location: `${site.origin}/` }).end());
      await new Promise<void>((resolve) => redirector!.listen(0, '127.0.0.1', resolve));
      const from = `http://127.0.0.1:${(redirector.address() as { port: number }).port}`;
      const { code, stdout, stderr } = await cli([from, '--json', '--no-browser', '--behaviour', '--rubric', 'behaviour,mintlify']);
      expect(stderr).toContain(`note: ${from}/ redirects to ${site.origin}/; auditing ${site.origin}\n`);
      expect(stderr).toContain(
        `note: --behaviour not run: it writes only to the origin named on the command line, and ${from}/ leads to ${site.origin}`,
      );
      const report = JSON.parse(stdout) as ScanReport;
      expect(report.options.behaviour).toBe(false);
      // stdout and --json say it too, not only stderr: the origin asked for, where it redirects, why.
      expect(report.options.behaviourNotRun).toEqual({
        requested: from,
        redirect: `${site.origin}/`,
        reason: 'it writes only to the origin named on the command line',
      });
      const mintlify = report.rubrics.find((r) => r.id === 'mintlify')!;
      expect(mintlify.summary.headline).toMatch(/points not evaluated: --behaviour not run on a redirected origin\)$/);
      const mcp = mintlify.checks.find((c) => c.id === 'mcp-server')!;
      expect(mcp).toMatchObject({
        status: 'neutral',
        reason: `not evaluated: --behaviour not run (${from}/ redirects to ${site.origin}/; it writes only to the origin named on the command line)`,
        fix: expect.stringMatching(new RegExp(`^Run with --behaviour naming ${site.origin} itself`)),
      });
      const human = await cli([from, '--no-browser', '--behaviour', '--rubric', 'mintlify']);
      expect(human.stdout).toContain(
        `read-only: --behaviour not run: ${from}/ redirects to ${site.origin}/, and it writes only to the origin named on the command line;`,
      );
      expect(human.stdout).not.toContain('add --behaviour');
      // Only the GET-only twin check runs without --behaviour.
      expect(
        report.rubrics
          .find((r) => r.id === 'behaviour')!
          .checks.filter((c) => c.status !== 'neutral')
          .map((c) => c.id),
      ).toEqual(['markdown-twins']);
      expect(code).toBe(0);
      expect(methods.filter((m) => m !== 'GET' && m !== 'HEAD')).toEqual([]);
      expect(methods.length).toBeGreaterThan(5);
    } finally {
      site.server.off('request', count);
      await new Promise<void>((resolve) => (redirector ? redirector.close(() => resolve()) : resolve()));
    }
  });

  it('--budget-s bounds the whole scan: a site that answers only / in time ends with a partial report, marked, and exit 1', async () => {
    const slow = createServer((req, res) => {
      if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<h1>Home</h1>');
      setTimeout(() => res.writeHead(404).end(), 60_000).unref();
    });
    try {
      await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
      const origin = `http://127.0.0.1:${(slow.address() as { port: number }).port}`;
      const started = performance.now();
      const { code, stdout, stderr } = await cli([origin, '--json', '--no-browser', '--budget-s', '2']);
      expect(performance.now() - started).toBeLessThan(20_000);
      expect(code).toBe(1);
      const report = JSON.parse(stdout) as ScanReport;
      expect(report.incomplete).toMatch(/^the scan budget ran out/);
      expect(JSON.stringify(report)).toContain('scan budget used up');
      expect(stderr).toContain('error: incomplete after 2 s (--budget-s): the scan budget ran out');
      const human = await cli([origin, '--no-browser', '--budget-s', '2', '--rubric', 'isitagentready']);
      expect(human.stdout).toMatch(/\nSummary\n[\s\S]*\n {2}INCOMPLETE: \d+ check\(s\) not evaluated: the scan budget ran out/);
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });

  it('a budget spent before / answers is exit 1 "incomplete", not 3 "cannot reach": the budget bounds the first request too', async () => {
    const mute = createServer(() => undefined); // accepts, never answers
    try {
      await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
      const origin = `http://127.0.0.1:${(mute.address() as { port: number }).port}`;
      const started = performance.now();
      const { code, stdout, stderr } = await cli([origin, '--json', '--no-browser', '--budget-s', '1', '--timeout-ms', '10000']);
      expect(performance.now() - started).toBeLessThan(8_000);
      expect(code).toBe(1);
      expect(stderr).toBe(`error: incomplete after 1 s (--budget-s): the scan budget ran out before ${origin}/ answered\n`);
      expect(JSON.parse(stdout)).toEqual({
        url: origin,
        error: 'incomplete',
        message: `the scan budget ran out before ${origin}/ answered`,
      });
    } finally {
      mute.closeAllConnections();
      await new Promise<void>((resolve) => mute.close(() => resolve()));
    }
  });

  it('a home page that redirects to another origin is audited there, with a note', async () => {
    let redirector: Server | undefined;
    try {
      redirector = createServer((_req, res) => void res.writeHead(301, { location: `${site.origin}/` }).end());
      await new Promise<void>((resolve) => redirector!.listen(0, '127.0.0.1', resolve));
      const from = `http://127.0.0.1:${(redirector.address() as { port: number }).port}`;
      const { code, stdout, stderr } = await cli([from, '--json', '--no-browser', '--rubric', 'isitagentready']);
      expect(stderr).toBe(`note: ${from}/ redirects to ${site.origin}/; auditing ${site.origin}\n`);
      expect(code).toBe(0);
      expect((JSON.parse(stdout) as ScanReport).url).toBe(site.origin);
    } finally {
      await new Promise<void>((resolve) => (redirector ? redirector.close(() => resolve()) : resolve()));
    }
  });
});
