/**
 * What Netlify's build installs is what the site builds and runs with: a copy of the repository is
 * installed without devDependencies (`npm install --omit=dev`, as netlify.toml's NPM_FLAGS tells
 * Netlify), then `npm run build` runs there, and every HTTP function answers a request from that
 * install (tests/support/production-functions.ts). A package the build or a function imports but
 * package.json lists under devDependencies fails here.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_ORIGIN } from '../support/origin.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const copy = mkdtempSync(path.join(tmpdir(), 'prod-install-'));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

/** The repository's files as a clone would have them (tracked and new, not ignored). */
function copyRepository(): void {
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
  for (const file of files) {
    if (!existsSync(path.join(ROOT, file))) continue; // deleted in the working tree
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    cpSync(path.join(ROOT, file), path.join(copy, file));
  }
}

describe('a production-only install', () => {
  it('installs no dev tool, builds the site, and every function answers', () => {
    copyRepository();
    const flags = /NPM_FLAGS\s*=\s*"([^"]+)"/.exec(readFileSync(path.join(ROOT, 'netlify.toml'), 'utf8'))?.[1];
    expect(flags).toBe('--omit=dev');
    // From npm's cache (the suite's own install filled it): no network needed.
    const install = spawnSync('npm', ['install', flags!, '--prefer-offline', '--no-audit', '--no-fund'], { cwd: copy, encoding: 'utf8' });
    expect(install.status, install.stderr).toBe(0);
    for (const devTool of [
      'vitest',
      'lighthouse',
      '@netlify/dev',
      '@biomejs/biome',
      'deno',
      '@redocly/cli',
      '@modelcontextprotocol/inspector',
    ])
      expect(existsSync(path.join(copy, 'node_modules', devTool)), devTool).toBe(false);

    const build = spawnSync('npm', ['run', 'build'], { cwd: copy, encoding: 'utf8', env: { ...process.env, SITE_URL: TEST_ORIGIN } });
    expect(build.status, `${build.stdout.slice(-2000)}\n${build.stderr.slice(-2000)}`).toBe(0);
    expect(existsSync(path.join(copy, 'dist', 'index.html'))).toBe(true);

    const node = path.join(copy, 'node_modules', '.bin', 'node');
    // npm run build records what dist/ holds (scripts/build-fingerprint.ts), so `npm start` for this origin serves it
    // instead of building it again: the recorded fingerprint is the one ensureBuild computes for these inputs.
    const fingerprint = spawnSync(
      existsSync(node) ? node : process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { buildFingerprint } from './scripts/build-fingerprint.ts'; import { parseBuildConfig } from './src/core/config.ts';" +
          ' const c = parseBuildConfig(process.env); console.log(buildFingerprint(c.origin, c.contentDir));',
      ],
      { cwd: copy, encoding: 'utf8', env: { ...process.env, SITE_URL: TEST_ORIGIN } },
    );
    expect(fingerprint.status, fingerprint.stderr).toBe(0);
    expect(readFileSync(path.join(copy, 'generated', 'fingerprint.txt'), 'utf8').trim()).toBe(fingerprint.stdout.trim());
    const run = spawnSync(existsSync(node) ? node : process.execPath, ['tests/support/production-functions.ts'], {
      cwd: copy,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    const answers = run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { name: string; status?: number; error?: string });
    // Every HTTP function (the scheduled ones answer no request) answered.
    const functionsDir = path.join(ROOT, 'netlify', 'functions');
    const httpFunctions = readdirSync(functionsDir)
      .filter((f) => f.endsWith('.mts') && !/\bschedule:/.test(readFileSync(path.join(functionsDir, f), 'utf8')))
      .map((f) => f.replace(/\.mts$/, ''));
    expect(answers.map((a) => a.name).sort()).toEqual(httpFunctions.sort());
    for (const answer of answers) {
      expect(answer.error, answer.name).toBeUndefined();
      expect(answer.status, answer.name).toBeLessThan(500);
    }
    // Real answers, not just no crash: search finds the gateway, the article comes from the deploy store.
    const byName = Object.fromEntries(answers.map((a) => [a.name, a]));
    expect(byName['api-search']!.status).toBe(200);
    expect(byName.mcp!.status).toBe(200);
    expect(byName['og-image']!.status).toBe(200);
    expect(byName['oauth-register']!.status).toBe(201);
  }, 900_000);
});
