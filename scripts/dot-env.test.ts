import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadDotEnv } from './dot-env.ts';

const NAMES = ['DOT_ENV_TEST_SET', 'DOT_ENV_TEST_NEW', 'DOT_ENV_TEST_QUOTED'];
const dir = mkdtempSync(path.join(tmpdir(), 'dot-env-'));
afterEach(() => {
  for (const name of NAMES) delete process.env[name];
});

describe('loadDotEnv', () => {
  it('fills in what the environment does not set and never replaces what it does', () => {
    const file = path.join(dir, '.env');
    writeFileSync(file, '# comment\nDOT_ENV_TEST_SET=from-file\nDOT_ENV_TEST_NEW=from-file\nDOT_ENV_TEST_QUOTED="a b # c"\n');
    process.env.DOT_ENV_TEST_SET = 'from-environment';
    expect(loadDotEnv(file)).toEqual({ loaded: ['DOT_ENV_TEST_NEW', 'DOT_ENV_TEST_QUOTED'], kept: ['DOT_ENV_TEST_SET'] });
    expect(process.env.DOT_ENV_TEST_SET).toBe('from-environment');
    expect(process.env.DOT_ENV_TEST_NEW).toBe('from-file');
    expect(process.env.DOT_ENV_TEST_QUOTED).toBe('a b # c');
  });

  it('does nothing without a file', () => {
    expect(loadDotEnv(path.join(dir, 'missing.env'))).toBeUndefined();
    rmSync(dir, { recursive: true, force: true });
  });
});
