/** The authorization server's facts: scopes, lifetimes in words, endpoints, and the scope arithmetic. */
import { describe, expect, it } from 'vitest';
import { intersectScope, oauthConfig, parseScope, REGISTRATION_LIFETIME_TEXT, SCOPES } from './config.ts';

describe('oauthConfig', () => {
  it('derives the issuer, the MCP resource and every endpoint from the origin', () => {
    expect(oauthConfig('https://site.example')).toEqual({
      issuer: 'https://site.example',
      mcpResource: 'https://site.example/mcp',
      endpoints: {
        register: 'https://site.example/oauth/register',
        token: 'https://site.example/oauth/token',
        authorize: 'https://site.example/oauth/authorize',
        revoke: 'https://site.example/oauth/revoke',
        claim: 'https://site.example/oauth/claim',
        claimVerify: 'https://site.example/oauth/claim/verify',
        jwks: 'https://site.example/oauth/jwks.json',
      },
    });
  });

  it('says how long registrations live, in days', () => {
    expect(REGISTRATION_LIFETIME_TEXT).toBe(
      'An unclaimed registration expires after 30 days without use and a claimed one after 365 days without use; each use extends it.',
    );
  });
});

describe('parseScope', () => {
  it.each([
    ['articles:read content:export', ['articles:read', 'content:export'], []],
    ['  articles:read   admin ', ['articles:read'], ['admin']],
    ['articles:read articles:read', ['articles:read'], []],
    ['', [], []],
    [null, [], []],
    [undefined, [], []],
  ])('%j', (value, known, unknown) => expect(parseScope(value)).toEqual({ known, unknown }));
});

describe('intersectScope (RFC 6749 §3.3)', () => {
  it.each([
    ['nothing requested: everything allowed', SCOPES, undefined, ['articles:read', 'content:export']],
    ['nothing requested (null)', ['articles:read'], null, ['articles:read']],
    ['nothing requested and nothing allowed', [], undefined, null],
    ['the allowed part of a request', ['articles:read'], 'articles:read content:export admin', ['articles:read']],
    ['nothing allowed of the request', ['articles:read'], 'content:export', null],
    ['an empty request', SCOPES, '', null],
  ] as const)('%s', (_name, allowed, requested, granted) => expect(intersectScope(allowed, requested)).toEqual(granted));

  it('returns a copy, never the allowed list itself', () => {
    const allowed = ['articles:read'] as const;
    const granted = intersectScope(allowed, undefined);
    expect(granted).not.toBe(allowed);
  });
});
