/**
 * `npm run keys`: prints a value for OAUTH_SIGNING_KEYS or WEB_BOT_AUTH_SIGNING_KEYS, rotates one
 * while keeping the old key published, and prints its help without generating anything.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRuntimeConfig } from '../../src/core/config.ts';
import { parseKeyRecords } from '../../src/core/oauth/grants/keys.ts';
import { PREPUBLISH_SECONDS, RETIREMENT_OVERLAP_SECONDS, signingKeySet } from '../../src/core/web-bot-auth/keys.ts';

/** An empty Blobs folder: `--local` writes here, and nothing else may. */
const blobsDir = mkdtempSync(path.join(tmpdir(), 'keys-cli-'));
afterAll(() => rmSync(blobsDir, { recursive: true, force: true }));

const cli = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['scripts/keys.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, NETLIFY_LOCAL_BLOBS_DIR: blobsDir, ...env },
  });
const run = (args: string[], env: Record<string, string> = {}): string =>
  execFileSync(process.execPath, ['scripts/keys.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, NETLIFY_LOCAL_BLOBS_DIR: blobsDir, ...env },
    stdio: ['ignore', 'pipe', 'ignore'],
  });

describe('npm run keys', () => {
  it('generates one key, then rotation adds a new active key and keeps the previous one', () => {
    const first = parseKeyRecords(run([]));
    expect(first).toHaveLength(1);
    expect(first[0]!.private_jwk.kty).toBe('RSA');
    const rotated = parseKeyRecords(run(['--rotate'], { OAUTH_SIGNING_KEYS: JSON.stringify(first) }));
    expect(rotated).toHaveLength(2);
    expect(rotated[0]!.kid).not.toBe(first[0]!.kid);
    expect(rotated[0]!.retired_at).toBeUndefined();
    expect(rotated[1]).toMatchObject({ kid: first[0]!.kid });
    expect(typeof rotated[1]!.retired_at).toBe('number');
  });

  it('refuses to rotate without a valid OAUTH_SIGNING_KEYS', () => {
    expect(() => run(['--rotate'], { OAUTH_SIGNING_KEYS: 'nope' })).toThrow();
  });

  it.each([
    [['--rotate'], 'OAUTH_SIGNING_KEYS', '`npm run keys`'],
    [['--web-bot-auth', '--rotate'], 'WEB_BOT_AUTH_SIGNING_KEYS', '`npm run keys -- --web-bot-auth`'],
  ])('%j with the variable unset says it is not set and how to make the first key (exit 1)', (args, name, first) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NETLIFY_LOCAL_BLOBS_DIR: blobsDir };
    delete env[name];
    const result = spawnSync(process.execPath, ['scripts/keys.ts', ...args], { encoding: 'utf8', env });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`${name} is not set`);
    expect(result.stderr).toContain(first);
    expect(result.stderr).not.toContain('not JSON');
  });

  it('--help prints the usage and generates, prints and stores no key', () => {
    for (const flag of ['--help', '-h']) {
      const result = cli([flag]);
      expect(result.status).toBe(0);
      expect(result.stdout).toContain('Usage: npm run keys');
      expect(result.stdout).toContain('--web-bot-auth');
      expect(result.stdout).not.toMatch(/"kty"|"private_jwk"|"keys"/);
      expect(result.stderr).toBe('');
    }
    expect(cli(['--rotate', '--local', '--help']).status).toBe(0);
    expect(readdirSync(blobsDir)).toEqual([]);
  });

  it('an unknown option or --local without --rotate is a usage error (exit 2) and changes nothing', () => {
    const unknown = cli(['--rotaet']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('Usage: npm run keys');
    expect(unknown.stdout).toBe('');
    expect(cli(['--local']).status).toBe(2);
    expect(readdirSync(blobsDir)).toEqual([]);
  });

  it('--web-bot-auth prints a WEB_BOT_AUTH_SIGNING_KEYS value the runtime accepts; rotation pre-publishes the new key', async () => {
    const first = run(['--web-bot-auth']);
    const keys = parseRuntimeConfig({ WEB_BOT_AUTH_SIGNING_KEYS: first }).webBotAuthKeys!;
    expect(keys).toHaveLength(1);
    const now = Math.floor(Date.now() / 1000);
    expect((await signingKeySet(keys, now)).active.keyid).toBe(keys[0]!.kid);

    const rotated = parseRuntimeConfig({
      WEB_BOT_AUTH_SIGNING_KEYS: run(['--web-bot-auth', '--rotate'], { WEB_BOT_AUTH_SIGNING_KEYS: first }),
    }).webBotAuthKeys!;
    expect(rotated.map((k) => k.kid)).toEqual([expect.not.stringMatching(keys[0]!.kid), keys[0]!.kid]);
    expect(rotated[0]!.nbf).toBeGreaterThanOrEqual(now + PREPUBLISH_SECONDS);
    expect(rotated[1]!.exp).toBe(rotated[0]!.nbf + RETIREMENT_OVERLAP_SECONDS);
    const set = await signingKeySet(rotated, now + 1);
    expect(set.active.keyid).toBe(keys[0]!.kid); // the old key signs until receivers have the new one
    expect(set.published.map((k) => k.kid)).toEqual(rotated.map((k) => k.kid));

    expect(cli(['--web-bot-auth', '--rotate'], { WEB_BOT_AUTH_SIGNING_KEYS: '{"keys":[]}' }).status).toBe(1);
  });

  it('--web-bot-auth --rotate --local rotates the key kept in local Blobs', () => {
    const first = cli(['--web-bot-auth', '--rotate', '--local']);
    expect(first.status).toBe(0);
    const firstKid = /New kid: ([\w-]+)/.exec(first.stdout)![1]!;
    const second = cli(['--web-bot-auth', '--rotate', '--local']);
    expect(second.status).toBe(0);
    expect(second.stdout).toContain(`published: ${/New kid: ([\w-]+)/.exec(second.stdout)![1]!}, ${firstKid}`);
  });
});
