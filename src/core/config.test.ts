/** The one environment schema: defaults, checks that name the variable, per-entry-point picks, docs/configuration.md. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BUILD_VARIABLES,
  ENV_NAMES,
  FUNCTION_VARIABLES,
  LOCAL_RUNTIME_VARIABLES,
  parseBuildConfig,
  parseEnv,
  parseLocalRuntimeConfig,
  parseRuntimeConfig,
} from './config.ts';

const CONFIGURATION_DOC = readFileSync(path.resolve(import.meta.dirname, '..', '..', 'docs', 'configuration.md'), 'utf8');

/** The variables the "Variables" table of docs/configuration.md lists (its first column; a cell may name several). */
function documentedVariables(markdown: string): string[] {
  const section = markdown.split(/^## Variables$/m)[1]?.split(/^## /m)[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
}

describe('parseBuildConfig', () => {
  it('defaults: localhost origin on 8888, ./content, no drafts, Astro folders', () => {
    expect(parseBuildConfig({})).toEqual({
      origin: 'http://localhost:8888',
      port: 8888,
      contentDir: './content',
      showDrafts: false,
      ogImages: 'on-demand',
      commitRef: null,
      outDir: './dist',
      cacheDir: './node_modules/.astro',
      generatedDir: './generated',
      deployBlobsDir: './.netlify/v1/blobs/deploy',
    });
  });

  it('reads every build variable; empty strings count as unset', () => {
    const config = parseBuildConfig({
      SITE_URL: 'https://example.com/x/',
      PORT: '9000',
      CONTENT_DIR: 'c',
      SHOW_DRAFTS: '1',
      OG_IMAGES: 'off',
      COMMIT_REF: 'abc',
      ASTRO_OUT_DIR: 'o',
      ASTRO_CACHE_DIR: 'k',
      GENERATED_DIR: '',
    });
    expect(config).toEqual({
      origin: 'https://example.com',
      port: 9000,
      contentDir: 'c',
      showDrafts: true,
      ogImages: 'off',
      commitRef: 'abc',
      outDir: 'o',
      cacheDir: 'k',
      generatedDir: './generated',
      deployBlobsDir: './.netlify/v1/blobs/deploy',
    });
    expect(
      parseBuildConfig({ CONTEXT: 'deploy-preview', URL: 'https://prod.example', DEPLOY_PRIME_URL: 'https://preview.example' }).origin,
    ).toBe('https://preview.example');
    expect(
      parseBuildConfig({ CONTEXT: 'production', URL: 'https://prod.example', DEPLOY_PRIME_URL: 'https://preview.example' }).origin,
    ).toBe('https://prod.example');
  });

  it.each([
    [{ PORT: 'eighty' }, /^Invalid environment variable PORT: must be a port number/],
    [{ PORT: '70000' }, /^Invalid environment variable PORT:/],
    [{ PORT: '-1' }, /^Invalid environment variable PORT:/],
    [{ SHOW_DRAFTS: 'yes' }, /^Invalid environment variable SHOW_DRAFTS: must be 1 \(build drafts\) or 0/],
    [{ SITE_URL: 'example.com' }, /^Invalid environment variable SITE_URL: must be a URL/],
    [{ OG_IMAGES: 'no' }, /^Invalid environment variable OG_IMAGES: must be on-demand \(a card per page, drawn by a function/],
    // `on` drew every card in the build before cards were drawn on demand: a fork that set it is told the new names.
    [{ OG_IMAGES: 'on' }, /^Invalid environment variable OG_IMAGES: .*build \(every card drawn in the build\)/],
  ])('refuses %o with a message naming the variable', (env, message) => {
    expect(() => parseBuildConfig(env)).toThrow(message);
  });

  it('reads only build variables: a bad function variable does not fail the build', () => {
    expect(parseBuildConfig({ TWEETS_TIMEOUT_MS: 'soon', OAUTH_SIGNING_KEYS: 'nope' }).contentDir).toBe('./content');
  });
});

describe('parseRuntimeConfig (the functions)', () => {
  it("reads only the functions' variables: a bad build variable does not fail a function", () => {
    expect(parseRuntimeConfig({ PORT: 'eighty', SHOW_DRAFTS: 'yes' }).accessTokenTtlSeconds).toBe(3600);
  });

  it('checks OAUTH_SIGNING_KEYS and passes the value on', () => {
    expect(() => parseRuntimeConfig({ OAUTH_SIGNING_KEYS: 'nope' })).toThrow(
      /^Invalid environment variable OAUTH_SIGNING_KEYS: OAUTH_SIGNING_KEYS is not JSON/,
    );
    expect(() => parseRuntimeConfig({ OAUTH_SIGNING_KEYS: '[]' })).toThrow(/OAUTH_SIGNING_KEYS.*non-empty JSON array/);
    const value = JSON.stringify([{ kid: 'k1', created_at: 1, private_jwk: { kty: 'RSA', d: 'x' } }]);
    expect(parseRuntimeConfig({ OAUTH_SIGNING_KEYS: value }).oauthSigningKeys).toBe(value);
    expect(parseRuntimeConfig({}).oauthSigningKeys).toBeNull();
  });

  it('names the variable for a bad number', () => {
    expect(() => parseRuntimeConfig({ TWEETS_TIMEOUT_MS: '5' })).toThrow(/^Invalid environment variable TWEETS_TIMEOUT_MS:/);
  });

  it("takes the X query from the environment only: a fork's feed is about what its operator says (no default topic)", () => {
    expect(() => parseRuntimeConfig({ TWEETS_SOURCE: 'x', TWEETS_X_BEARER_TOKEN: 't' })).toThrow(/TWEETS_SOURCE=x needs TWEETS_X_QUERY/);
    const { tweets } = parseRuntimeConfig({ TWEETS_SOURCE: 'x', TWEETS_X_BEARER_TOKEN: 't', TWEETS_X_QUERY: ' lineage lang:en ' });
    expect(tweets).toMatchObject({ kind: 'x', query: 'lineage lang:en' });
  });
});

describe('parseLocalRuntimeConfig (npm start)', () => {
  it('defaults and values', () => {
    expect(parseLocalRuntimeConfig({})).toEqual({
      origin: 'http://localhost:8888',
      port: 8888,
      host: 'localhost',
      trustedProxies: null,
      blobsDir: null,
    });
    expect(
      parseLocalRuntimeConfig({ PORT: '9001', HOST: '0.0.0.0', TRUSTED_PROXIES: '10.0.0.0/8', NETLIFY_LOCAL_BLOBS_DIR: '/tmp/b' }),
    ).toEqual({
      origin: 'http://localhost:9001',
      port: 9001,
      host: '0.0.0.0',
      trustedProxies: '10.0.0.0/8',
      blobsDir: '/tmp/b',
    });
    // PORT=0 asks the system for a free port (the benches and tests start `npm start` that way).
    expect(parseLocalRuntimeConfig({ PORT: '0' }).port).toBe(0);
  });

  it('parseEnv picks only the names asked for', () => {
    expect(parseEnv({ NETLIFY_SITE_ID: 's', PORT: 'bad' }, ['NETLIFY_SITE_ID', 'NETLIFY_AUTH_TOKEN'])).toEqual({ NETLIFY_SITE_ID: 's' });
  });
});

describe('docs/configuration.md, "Variables"', () => {
  it('the table parser finds rows (so the comparison below can fail)', () => {
    expect(documentedVariables('## Variables\n\n| variable | x |\n| --- | --- |\n| `A_B`, `C` | d |\n\n## Next\n| `D` | e |\n')).toEqual([
      'A_B',
      'C',
    ]);
  });

  it('lists exactly the variables of the schema', () => {
    const listed = documentedVariables(CONFIGURATION_DOC);
    expect(
      listed.filter((name) => !ENV_NAMES.includes(name as never)),
      'documented, not in the schema',
    ).toEqual([]);
    expect(
      ENV_NAMES.filter((name) => !listed.includes(name)),
      'in the schema, not documented',
    ).toEqual([]);
  });

  it('every variable is read by some entry point', () => {
    const read = new Set<string>([
      ...BUILD_VARIABLES,
      ...FUNCTION_VARIABLES,
      ...LOCAL_RUNTIME_VARIABLES,
      'NETLIFY_SITE_ID',
      'NETLIFY_AUTH_TOKEN',
    ]);
    expect(ENV_NAMES.filter((name) => !read.has(name))).toEqual([]);
  });
});
