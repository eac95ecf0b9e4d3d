import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../kernel/crypto.ts';
import { INTERACTION_TTL_SECONDS } from '../config.ts';
import { assertSameOrigin, consumeTicket, InteractionError, issueTicket, ticketAnswerKey, verifyTicket } from './interaction.ts';
import { memoryStore } from '../../kernel/memory-store.ts';
import { generateKeyRecord, keySetOf, type KeySet } from '../grants/keys.ts';
import { verifyAccessToken } from '../grants/tokens.ts';

const T0 = 1_800_000_000;
const ISSUER = 'https://site.example';
const AUDIENCE = `${ISSUER}/oauth/authorize`;

/** RSA key generation is slow: one key set for the file (tests never change it). */
let keys: KeySet;
beforeAll(async () => {
  keys = await keySetOf([await generateKeyRecord(T0)], T0);
});

async function setup() {
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
  it('allows our origin, none, and same-origin fetch metadata', () => {
    for (const headers of [{}, { origin: ISSUER }, { 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }] as Record<
      string,
      string
    >[])
      expect(() => assertSameOrigin(req(headers), ISSUER)).not.toThrow();
  });
  it('refuses a foreign or opaque origin and cross-site or same-site fetch metadata', () => {
    for (const headers of [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: 'null', 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ] as Record<string, string>[])
      expect(() => assertSameOrigin(req(headers), ISSUER)).toThrow(InteractionError);
  });
});

describe('tickets of a plain-http site (local runs)', () => {
  it('use a bare cookie name narrowed to /oauth, without Secure, and still round-trip', async () => {
    const issuer = 'http://localhost:8888';
    const audience = `${issuer}/oauth/claim/verify`;
    const issued = await issueTicket(keys, { issuer, audience, kind: 'claim', payload: { n: 1 }, nowSeconds: T0 });
    expect(issued.setCookie).toMatch(/^oauth_claim_[\w-]{16}=[\w-]{43}; Path=\/oauth; Max-Age=600; HttpOnly; SameSite=Strict$/);
    const cookie = issued.setCookie.split(';')[0]!;
    const verified = await verifyTicket<{ n: number }>(keys, {
      issuer,
      audience,
      kind: 'claim',
      ticket: issued.ticket,
      cookieHeader: `  ${cookie}  ;x=1`,
      nowSeconds: T0 + INTERACTION_TTL_SECONDS - 1,
    });
    expect(verified.payload).toEqual({ n: 1 });
    expect(verified.clearCookie).toBe(`${cookie.split('=')[0]}=; Path=/oauth; Max-Age=0; HttpOnly; SameSite=Strict`);
    expect(verified.expiresAt).toBe(T0 + INTERACTION_TTL_SECONDS);
    expect(verified.ticketId).toMatch(/^[\w-]{16}$/);
  });
});

describe('verifyTicket: the cookie', () => {
  it.each([
    ['a cookie of another name that ends like ours', (c: string) => `x${c}`],
    ['the value alone', (c: string) => c.split('=')[1]!],
    ['an empty value', (c: string) => `${c.split('=')[0]}=`],
  ])('refuses %s', async (_name, mangle) => {
    const { verify, cookie } = await setup();
    await expect(verify({ cookieHeader: mangle(cookie) })).rejects.toThrow('not opened in this browser');
  });

  it('says why in words', async () => {
    const { verify } = await setup();
    await expect(verify({ ticket: 'x' })).rejects.toThrow('This form has expired or is not valid. Start again from the application.');
    await expect(verify({ kind: 'claim' })).rejects.toThrow('This form belongs to a different step.');
  });
});

describe('consumeTicket', () => {
  it('lets a ticket be answered once, and remembers the answer until the ticket expires', async () => {
    const store = memoryStore();
    await consumeTicket(store, { ticketId: 't1', expiresAt: T0 + 600 });
    await expect(consumeTicket(store, { ticketId: 't1', expiresAt: T0 + 600 })).rejects.toThrow(
      'This request was already answered. Start again from the application if you need to.',
    );
    expect((await store.get(ticketAnswerKey('t1')))?.value).toEqual({ expires_at: T0 + 600 });
    expect(await store.list('expires/')).toHaveLength(1);
  });
});

describe('verifyTicket: a ticket signed by our key but not issued as a ticket', () => {
  async function forged(claims: Record<string, unknown>) {
    const cookieValue = 'c'.repeat(43);
    const ticket = await new SignJWT({ kind: 'consent', payload: { client_id: 'agt_1' }, csrf: await sha256Hex(cookieValue), ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: keys.active.kid, typ: 'oauth-interaction+jwt' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .sign(keys.active.key);
    return { ticket, cookieHeader: `__Host-oauth_consent_${String(claims.jti)}=${cookieValue}` };
  }

  it.each([
    ['no exp (it would never expire)', { jti: 'j1', iat: T0 }],
    ['no jti', { exp: T0 + 600, iat: T0 }],
  ])('refuses one with %s', async (_name, claims) => {
    const { ticket, cookieHeader } = await forged(claims);
    const error = await verifyTicket(keys, {
      issuer: ISSUER,
      audience: AUDIENCE,
      kind: 'consent',
      ticket,
      cookieHeader,
      nowSeconds: T0 + 5,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InteractionError);
    expect((error as Error).name).toBe('InteractionError');
  });

  it('accepts the same with both (the table above changes one thing)', async () => {
    const { ticket, cookieHeader } = await forged({ jti: 'j1', exp: T0 + 600, iat: T0 });
    const ok = await verifyTicket(keys, { issuer: ISSUER, audience: AUDIENCE, kind: 'consent', ticket, cookieHeader, nowSeconds: T0 + 5 });
    expect(ok.payload).toEqual({ client_id: 'agt_1' });
  });
});
