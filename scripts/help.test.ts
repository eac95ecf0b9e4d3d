/**
 * Every script answers --help: exit 0, a usage line on stdout, and nothing written, built or
 * started. Node's permission model enforces "nothing written": the scripts run with read access
 * only (no file writes, no child processes, no workers), so one that builds, starts the Blobs
 * server or writes a cache dies with ERR_ACCESS_DENIED instead of passing.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const SCRIPTS = [
  ...readdirSync(path.join(ROOT, 'scripts'))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts'))
    .map((name) => `scripts/${name}`),
  'tests/global-setup.ts',
  'tests/support/emulator/emulator.ts',
  'scripts/runtime/blobs-server-conditional-writes.ts',
  'scripts/runtime/blobs-server-loopback.ts',
  'scripts/runtime/blobs-server-temp-files.ts',
  'scripts/runtime/local-blobs-dir.ts',
  'tests/support/emulator/netlify-dev-bundle-race.ts',
  'tools/agent-ready/node/cli.ts',
  // The benchmarks that run as scripts (bench/help.ts): the rest of bench/ are modules they import.
  ...readdirSync(path.join(ROOT, 'bench'))
    .filter((name) => /\.bench\.ts$|-child\.ts$|^(generate-corpus|run-all|test-suite-cpu)\.ts$/.test(name))
    .map((name) => `bench/${name}`),
];
const READ_ONLY = ['--permission', '--allow-fs-read=*'];

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...READ_ONLY, ...args],
      { cwd: ROOT, timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
      },
    );
  });
}

describe('--help', () => {
  it('the read-only sandbox refuses writes (so the assertions below can fail)', async () => {
    const { code, stderr } = await run([
      '-e',
      `require('node:fs').writeFileSync(${JSON.stringify(path.join(ROOT, 'generated', 'help-test.txt'))}, 'x')`,
    ]);
    expect(code).not.toBe(0);
    expect(stderr).toContain('ERR_ACCESS_DENIED');
  });

  it('covers the scripts that build, serve and read data', () => {
    expect(SCRIPTS).toEqual(
      expect.arrayContaining([
        'scripts/serve.ts',
        'scripts/build.ts',
        'scripts/enquiries.ts',
        'scripts/pagefind-index.ts',
        'bench/run-all.ts',
        'bench/build.bench.ts',
      ]),
    );
  });

  it.each(SCRIPTS)('%s --help: exit 0, usage on stdout, nothing written', async (script) => {
    // -h as well for the one whose plain run does the most (build, then serve).
    for (const flag of script === 'scripts/serve.ts' ? ['--help', '-h'] : ['--help']) {
      const { code, stdout, stderr } = await run([script, flag]);
      expect({ code, stderr }, `${script} ${flag}`).toEqual({ code: 0, stderr: '' });
      expect(stdout).toMatch(/^Usage: \S/);
    }
  });
});

describe('npm test -- --help', () => {
  const script = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { test: string } }).scripts.test;
  const commands = script.split('&&').map((command) => command.trim().split(/\s+/));

  it('hands the arguments to the first command it runs (npm appends them to the last: one before it would build unasked)', () => {
    expect(commands).toHaveLength(1);
  });

  it("prints vitest's usage at once: exit 0, nothing written or built", async () => {
    const [bin, ...args] = commands.at(-1)!;
    expect(bin).toBe('vitest');
    const { code, stdout, stderr } = await run([path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), ...args, '--help']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/Usage:\s+\$ vitest run/);
  });
});
