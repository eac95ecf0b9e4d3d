/** `node scripts/build.ts` options: an explicit origin wins over the environment; a bad one is refused. */
import { describe, expect, it } from 'vitest';
import { parseBuildArgs } from './build.ts';

describe('parseBuildArgs', () => {
  it('takes the origin from --origin, else from the environment', () => {
    expect(parseBuildArgs(['--origin', 'http://localhost:8899/'], { SITE_URL: 'https://example.com' })).toEqual({
      origin: 'http://localhost:8899',
      force: false,
      seedLocalBlobs: false,
    });
    expect(parseBuildArgs([], { SITE_URL: 'https://example.com' }).origin).toBe('https://example.com');
    expect(parseBuildArgs(['--force', '--seed-local-blobs'], { PORT: '9000' })).toEqual({
      origin: 'http://localhost:9000',
      force: true,
      seedLocalBlobs: true,
    });
  });

  it('refuses --origin without a URL, and a bad environment with the variable named', () => {
    expect(() => parseBuildArgs(['--origin'], {})).toThrow(/--origin needs a URL/);
    expect(() => parseBuildArgs(['--origin', '--force'], {})).toThrow(/--origin needs a URL/);
    expect(() => parseBuildArgs(['--origin', 'ftp://x'], {})).toThrow(/must use http or https/);
    expect(() => parseBuildArgs([], { PORT: 'x' })).toThrow(/Invalid environment variable PORT/);
  });
});
