/** `npm run keys`: prints a value for OAUTH_SIGNING_KEYS, and rotates one while keeping the old key published. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseKeyRecords } from '../../src/core/oauth/keys.ts';

const run = (args: string[], env: Record<string, string> = {}): string =>
  execFileSync(process.execPath, ['scripts/keys.ts', ...args], { encoding: 'utf8', env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'ignore'] });

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
});
