import { describe, expect, it } from 'vitest';
import { INTERACTION_TTL_SECONDS } from '../config.ts';
import { assertSameOrigin, InteractionError, issueTicket, verifyTicket } from './interaction.ts';
import { generateKeyRecord, keySetOf } from '../grants/keys.ts';
import { verifyAccessToken } from '../grants/tokens.ts';

const T0 = 1_800_000_000;
const ISSUER = 'https://site.example';
const AUDIENCE = `${ISSUER}/oauth/authorize`;

async function setup() {
  const keys = await keySetOf([await generateKeyRecord(T0)], T0);
  const issued = await issueTicket(keys, {
    issuer: ISSUER,
    audience: AUDIENCE,
    kind: 'consent',
    payload: { client_id: 'agt_1' },
    nowSeconds: T0,
  });
  const cookie = issued.setCookie.split(';')[0]!;
  const verify = (over: Partial<Parameters<typeof verifyTicket>[1]> = {}) =>
    verifyTicket<{ client_id: string }>(keys, {
      issuer: ISSUER,
      audience: AUDIENCE,
      kind: 'consent',
      ticket: issued.ticket,
      cookieHeader: `a=b; ${cookie}`,
      nowSeconds: T0 + 5,
      ...over,
    });
  return { keys, issued, cookie, verify };
}

describe('interaction tickets', () => {
  it('round-trip with the cookie; the cookie is __Host-, HttpOnly, SameSite=Strict, Secure on https', async () => {
    const { issued, verify } = await setup();
    expect(issued.setCookie).toMatch(
      /^__Host-oauth_consent_[A-Za-z0-9_-]+=[A-Za-z0-9_-]+; Path=\/; Max-Age=600; HttpOnly; SameSite=Strict; Secure$/,
    );
    const ok = await verify();
    expect(ok.payload).toEqual({ client_id: 'agt_1' });
    expect(ok.clearCookie).toMatch(/Max-Age=0/);
  });

  it.each([
    ['no cookie', { cookieHeader: null }],
    ['a wrong cookie value', { cookieHeader: 'x=y' }],
    ['another audience', { audience: `${ISSUER}/oauth/claim/verify` }],
    ['another kind', { kind: 'claim' as const }],
    ['another issuer', { issuer: 'https://evil.example' }],
    ['after the lifetime', { nowSeconds: T0 + INTERACTION_TTL_SECONDS + 1 }],
    ['a garbage ticket', { ticket: 'abc.def.ghi' }],
  ])('refuses %s', async (_name, over) => {
    const { verify, cookie } = await setup();
    const o = { ...over } as Record<string, unknown>;
    if (o.cookieHeader === 'x=y') o.cookieHeader = `${cookie.split('=')[0]}=wrong`;
    await expect(verify(o)).rejects.toBeInstanceOf(InteractionError);
  });

  it('a ticket is never accepted as an access token', async () => {
    const { keys, issued } = await setup();
    expect(await verifyAccessToken(issued.ticket, { keys, issuer: ISSUER, nowSeconds: T0, revocations: null })).toEqual({
      ok: false,
      reason: 'wrong_type',
    });
  });
});

describe('assertSameOrigin', () => {
  const req = (headers: Record<string, string>) => new Request(AUDIENCE, { method: 'POST', headers });
  it('allows our origin, a null origin (no-referrer pages), none, and same-origin fetch metadata', () => {
    for (const headers of [
      {},
      { origin: ISSUER },
      { origin: 'null' },
      { 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
    ] as Record<string, string>[])
      expect(() => assertSameOrigin(req(headers), ISSUER)).not.toThrow();
  });
  it('refuses a foreign origin and cross-site or same-site fetch metadata', () => {
    for (const headers of [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ] as Record<string, string>[])
      expect(() => assertSameOrigin(req(headers), ISSUER)).toThrow(InteractionError);
  });
});
