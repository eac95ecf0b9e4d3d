/**
 * The claim ceremony in-process: `POST /oauth/claim` (start, poll) and the verification page a person
 * answers, from a registration made by the real endpoint, with the memory store and a fake clock.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { answerFormPage, type Fetch, openFormPage } from '../../../../tests/support/consent.ts';
import { sha256Hex } from '../../kernel/crypto.ts';
import { fakeClock, memoryStore } from '../../kernel/memory-store.ts';
import type { Store } from '../../kernel/store.ts';
import { CLAIMED_CLIENT_TTL_SECONDS, oauthConfig } from '../config.ts';
import { withOAuthErrors } from '../errors.ts';
import { clientKey, type ClientRecord } from '../grants/clients.ts';
import { generateKeyRecord, keySetOf, type KeySet } from '../grants/keys.ts';
import {
  CLAIM_START_RATE_LIMIT,
  CLAIM_VERIFY_RATE_LIMIT,
  type ClaimAttemptRecord,
  type ClaimDeps,
  claimRoutes,
  generateUserCode,
  handleClaim,
  handleClaimVerification,
  normalizeUserCode,
} from './claim.ts';
import { CLAIM_TOKEN_TTL_SECONDS, handleRegister } from './register.ts';

const ORIGIN = 'https://site.example';
const CONFIG = oauthConfig(ORIGIN);
const VERIFY = CONFIG.endpoints.claimVerify;

let keys: KeySet;
beforeAll(async () => {
  keys = await keySetOf([await generateKeyRecord(1_800_000_000)], 1_800_000_000);
});

interface Setup {
  deps: ClaimDeps;
  clients: Store;
  grants: Store;
  limits: Store;
  clock: ReturnType<typeof fakeClock>;
  /** The verification page, as a browser reaches it. */
  page: Fetch;
}

function setup(): Setup {
  const clients = memoryStore();
  const grants = memoryStore();
  const limits = memoryStore();
  const clock = fakeClock(new Date('2027-02-01T10:20:30Z'));
  const deps: ClaimDeps = {
    config: CONFIG,
    clients,
    grants,
    limits,
    keys: async () => keys,
    nowSeconds: clock.nowSeconds,
    clientNetworkDigest: 'net-a',
    siteName: 'Acme AI',
  };
  const page: Fetch = (input, init) => handleClaimVerification(new Request(new URL(input, ORIGIN), init), deps);
  return { deps, clients, grants, limits, clock, page };
}

/** A registration through the real endpoint: its client id and claim token. */
async function register(s: Setup, clientName = 'Research <agent>'): Promise<{ clientId: string; claimToken: string }> {
  const req = new Request(`${ORIGIN}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: clientName, grant_types: ['client_credentials'] }),
  });
  const res = await handleRegister(req, { ...s.deps, limits: memoryStore() });
  const body = (await res.json()) as { client_id: string; claim_token: string };
  return { clientId: body.client_id, claimToken: body.claim_token };
}

async function claim(s: Setup, body: unknown, init: { method?: string; contentType?: string; network?: string } = {}) {
  const req = () =>
    new Request(`${ORIGIN}/oauth/claim`, {
      method: init.method ?? 'POST',
      headers: { 'content-type': init.contentType ?? 'application/json' },
      ...((init.method ?? 'POST') === 'POST'
        ? { body: typeof body === 'string' || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body) }
        : {}),
    });
  const deps = init.network ? { ...s.deps, clientNetworkDigest: init.network } : s.deps;
  const res = await withOAuthErrors(req(), () => handleClaim(req(), deps));
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

const storedClient = async (s: Setup, clientId: string) => (await s.clients.get<ClientRecord>(clientKey(clientId)))!.value;

async function started(s: Setup, clientName?: string) {
  const registration = await register(s, clientName);
  const start = await claim(s, { claim_token: registration.claimToken });
  expect(start.status).toBe(200);
  return { ...registration, attemptId: String(start.body.claim_attempt_id), userCode: String(start.body.user_code), start };
}

describe('user codes (RFC 8628 §6.1)', () => {
  it('are 8 consonants shown as XXXX-XXXX, spread over the whole alphabet', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) {
      const code = generateUserCode();
      expect(code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
      for (const c of code.replace('-', '')) seen.add(c);
    }
    expect(seen.size).toBe(20);
  });

  it('are read back however a person types them, and anything else is refused', () => {
    expect(normalizeUserCode('bcdf-ghjk')).toBe('BCDF-GHJK');
    expect(normalizeUserCode(' BCDF GHJK ')).toBe('BCDF-GHJK');
    expect(normalizeUserCode('bcdfghjk')).toBe('BCDF-GHJK');
    for (const bad of ['BCDF-GHJ', 'BCDF-GHJKL', 'ABCD-EFGH', 'BCDF-GHJA', '1234-5678', '']) expect(normalizeUserCode(bad)).toBeNull();
  });
});

describe('POST /oauth/claim: requests it refuses', () => {
  it.each([
    ['GET', undefined, { method: 'GET' }, 405, 'invalid_request', 'Use POST with a JSON body.'],
    [
      'a form body',
      'claim_token=x',
      { contentType: 'application/x-www-form-urlencoded' },
      415,
      'invalid_request',
      'Send a JSON body (application/json).',
    ],
    ['a body over 4 KB', JSON.stringify({ pad: 'x'.repeat(4096) }), {}, 413, 'invalid_request', 'The body must be at most 4096 bytes.'],
    ['bytes that are not UTF-8', new Uint8Array([0x7b, 0xff, 0x7d]), {}, 400, 'invalid_request', 'The body is not valid UTF-8.'],
    ['malformed JSON', '{', {}, 400, 'invalid_request', 'The body is not valid JSON.'],
    ['JSON nested too deep', `${'['.repeat(65)}${']'.repeat(65)}`, {}, 400, 'invalid_request', 'The body is refused: '],
    ['an array', '[]', {}, 400, 'invalid_request', 'The body must be a JSON object.'],
    ['null', 'null', {}, 400, 'invalid_request', 'The body must be a JSON object.'],
    [
      'neither field',
      {},
      {},
      400,
      'invalid_request',
      'Send exactly one of claim_token (to start a claim) or claim_attempt_id (to poll it).',
    ],
    ['both fields', { claim_token: 'clm_x', claim_attempt_id: 'cla_x' }, {}, 400, 'invalid_request', 'Send exactly one of'],
    [
      'a claim_token that is a number',
      { claim_token: 7 },
      {},
      400,
      'invalid_claim_token',
      'claim_token must be the clm_… string returned by registration.',
    ],
    ['a claim_token without its prefix', { claim_token: 'x'.repeat(30) }, {}, 400, 'invalid_claim_token', 'claim_token must be'],
    ['a claim_token of 15 characters', { claim_token: `clm_${'a'.repeat(15)}` }, {}, 400, 'invalid_claim_token', 'claim_token must be'],
    ['a claim_token of 101 characters', { claim_token: `clm_${'a'.repeat(101)}` }, {}, 400, 'invalid_claim_token', 'claim_token must be'],
    ['a claim_token with a dot', { claim_token: `clm_${'a'.repeat(20)}.` }, {}, 400, 'invalid_claim_token', 'claim_token must be'],
    ['a prefix inside', { claim_token: `xclm_${'a'.repeat(20)}` }, {}, 400, 'invalid_claim_token', 'claim_token must be'],
    [
      'an unknown claim_token',
      { claim_token: `clm_${'a'.repeat(16)}` },
      {},
      400,
      'invalid_claim_token',
      'The claim_token is not valid (unknown, spent, or its registration has expired).',
    ],
    [
      'an attempt id that is a number',
      { claim_attempt_id: 1 },
      {},
      400,
      'invalid_claim_attempt',
      'claim_attempt_id must be the cla_… string returned when the claim started.',
    ],
    [
      'an attempt id of 15 characters',
      { claim_attempt_id: `cla_${'a'.repeat(15)}` },
      {},
      400,
      'invalid_claim_attempt',
      'claim_attempt_id must be',
    ],
    [
      'an attempt id of 101 characters',
      { claim_attempt_id: `cla_${'a'.repeat(101)}` },
      {},
      400,
      'invalid_claim_attempt',
      'claim_attempt_id must be',
    ],
    [
      'an attempt id with a prefix inside',
      { claim_attempt_id: `xcla_${'a'.repeat(20)}` },
      {},
      400,
      'invalid_claim_attempt',
      'claim_attempt_id must be',
    ],
    [
      'an attempt id with a dot',
      { claim_attempt_id: `cla_${'a'.repeat(20)}.` },
      {},
      400,
      'invalid_claim_attempt',
      'claim_attempt_id must be',
    ],
    [
      'an unknown attempt id',
      { claim_attempt_id: `cla_${'a'.repeat(100)}` },
      {},
      400,
      'invalid_claim_attempt',
      'The claim_attempt_id is not valid.',
    ],
  ] as const)('%s → %i %s', async (_name, body, init, status, error, description) => {
    const s = setup();
    const answer = await claim(s, body, init);
    expect(answer.status).toBe(status);
    expect(answer.body.error).toBe(error);
    expect(String(answer.body.error_description).startsWith(description)).toBe(true);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    if (status === 405) expect(answer.headers.get('allow')).toBe('POST, OPTIONS');
  });
});

describe('starting a claim', () => {
  it('answers an attempt id, a user code and where a person enters it; the registration remembers the attempt', async () => {
    const s = setup();
    const { clientId, attemptId, userCode, start } = await started(s);
    expect(start.body).toEqual({
      status: 'pending',
      client_id: clientId,
      claim_attempt_id: attemptId,
      user_code: userCode,
      verification_uri: VERIFY,
      verification_uri_complete: `${VERIFY}?user_code=${userCode}`,
      expires_in: 600,
      interval: 5,
    });
    expect(attemptId).toMatch(/^cla_[\w-]{32}$/);
    expect(userCode).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect((await storedClient(s, clientId)).claim.attempt_sha256).toBe(await sha256Hex(attemptId));
    const attempt = await s.grants.get<ClaimAttemptRecord>(`claim/${await sha256Hex(attemptId)}`);
    expect(attempt?.value).toEqual({
      client_id: clientId,
      status: 'pending',
      expires_at: s.clock.nowSeconds() + 600,
      last_polled_at: s.clock.nowSeconds(),
    });
    expect(await s.grants.get(`usercode/${await sha256Hex(userCode)}`)).toMatchObject({
      value: { attempt_sha256: await sha256Hex(attemptId), client_id: clientId, expires_at: s.clock.nowSeconds() + 600 },
    });
  });

  it('a claim token of exactly 16 and 100 characters after its prefix is read (and here unknown)', async () => {
    const s = setup();
    for (const token of [`clm_${'a'.repeat(16)}`, `clm_${'-_'.repeat(50)}`])
      expect((await claim(s, { claim_token: token })).body.error).toBe('invalid_claim_token');
  });

  it('a registration that has expired: invalid_claim_token', async () => {
    const s = setup();
    const { clientId, claimToken } = await register(s);
    const client = await storedClient(s, clientId);
    await s.clients.set(clientKey(clientId), { ...client, expires_at: s.clock.nowSeconds() });
    expect(await claim(s, { claim_token: claimToken })).toMatchObject({ status: 400, body: { error: 'invalid_claim_token' } });
  });

  it('a claim token past its own lifetime: 410 expired_claim_token; one second before, it starts', async () => {
    const s = setup();
    const { clientId, claimToken } = await register(s);
    const client = await storedClient(s, clientId);
    expect(client.claim.token_expires_at).toBe(s.clock.nowSeconds() + CLAIM_TOKEN_TTL_SECONDS);
    await s.clients.set(clientKey(clientId), { ...client, claim: { ...client.claim, token_expires_at: s.clock.nowSeconds() } });
    expect(await claim(s, { claim_token: claimToken })).toMatchObject({
      status: 410,
      body: { error: 'expired_claim_token', error_description: 'The claim_token has expired.' },
    });
    await s.clients.set(clientKey(clientId), { ...client, claim: { ...client.claim, token_expires_at: s.clock.nowSeconds() + 1 } });
    expect((await claim(s, { claim_token: claimToken })).status).toBe(200);
  });

  it('a claim token that is not the registration’s current one is refused as already claimed', async () => {
    const s = setup();
    const { clientId, claimToken } = await register(s);
    const client = await storedClient(s, clientId);
    await s.clients.set(clientKey(clientId), { ...client, claim: { ...client.claim, token_sha256: 'other' } });
    expect(await claim(s, { claim_token: claimToken })).toMatchObject({
      status: 409,
      body: { error: 'already_claimed', error_description: 'This registration is already claimed.' },
    });
  });

  it('30 starts an hour per client network, then 429 with Retry-After; another network is not affected', async () => {
    const s = setup();
    const { claimToken } = await register(s);
    for (let i = 0; i < CLAIM_START_RATE_LIMIT.limit; i++) expect((await claim(s, { claim_token: claimToken })).status).toBe(200);
    const limited = await claim(s, { claim_token: claimToken });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: 'rate_limited', error_description: 'At most 30 claim starts per hour; retry in 3600 s.' });
    expect(limited.headers.get('retry-after')).toBe('3600');
    expect((await claim(s, { claim_token: claimToken }, { network: 'net-b' })).status).toBe(200);
  });

  it('a new start replaces the previous attempt: its id and its user code stop working', async () => {
    const s = setup();
    const first = await started(s);
    const second = await claim(s, { claim_token: first.claimToken });
    expect(second.status).toBe(200);
    s.clock.advanceSeconds(5);
    expect(await claim(s, { claim_attempt_id: first.attemptId })).toMatchObject({
      status: 400,
      body: {
        error: 'invalid_claim_attempt',
        error_description: 'This claim attempt was replaced by a newer one or the registration was claimed by another attempt.',
      },
    });
    expect((await s.page(`${VERIFY}?user_code=${first.userCode}`)).status).toBe(404);
    expect((await s.page(`${VERIFY}?user_code=${second.body.user_code}`)).status).toBe(200);
  });
});

describe('polling a claim', () => {
  it('pending, at most every 5 s (slow_down with Retry-After), counting down to its expiry, then expired', async () => {
    const s = setup();
    const { clientId, attemptId } = await started(s);
    const poll = () => claim(s, { claim_attempt_id: attemptId });
    const early = await poll();
    expect(early).toMatchObject({ status: 400, body: { error: 'slow_down', error_description: 'Poll at most every 5 s.' } });
    expect(early.headers.get('retry-after')).toBe('5');
    s.clock.advanceSeconds(4);
    expect((await poll()).body.error).toBe('slow_down');
    s.clock.advanceSeconds(1);
    expect(await poll()).toMatchObject({ status: 200, body: { status: 'pending', client_id: clientId, expires_in: 595, interval: 5 } });
    s.clock.advanceSeconds(4);
    expect((await poll()).body.error).toBe('slow_down');
    s.clock.advanceSeconds(1);
    expect((await poll()).body).toMatchObject({ status: 'pending', expires_in: 590 });
    s.clock.advanceSeconds(590);
    expect(await poll()).toMatchObject({
      status: 410,
      body: { error: 'expired_claim_attempt', error_description: 'The claim attempt expired; start a new one with the claim_token.' },
    });
  });

  it('an attempt whose registration is gone', async () => {
    const s = setup();
    const { clientId, attemptId } = await started(s);
    await s.clients.delete(clientKey(clientId));
    expect((await claim(s, { claim_attempt_id: attemptId })).body).toEqual({
      error: 'invalid_claim_attempt',
      error_description: 'The registration of this claim attempt no longer exists.',
    });
  });
});

describe('the verification page', () => {
  it('without a code: a form asking for it', async () => {
    const s = setup();
    const res = await s.page(VERIFY);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<title>Claim a registration – Acme AI</title>');
    expect(html).toContain(`<form method="get" action="${VERIFY}">`);
    expect(html).toContain('<input type="text" id="user_code" name="user_code" value=""');
    expect(html).not.toContain('role="alert"');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('a code that cannot be one: 400, the form again with what was typed (cut to 20 characters)', async () => {
    const s = setup();
    const res = await s.page(`${VERIFY}?user_code=${encodeURIComponent('<b>123456789012345678901234</b>')}`);
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('<p class="error" role="alert">That is not a valid code: 8 letters, like BCDF-GHJK.</p>');
    expect(html).toContain('value="&lt;b&gt;12345678901234567"');
  });

  it('an unknown code: 404 with the code kept in the form', async () => {
    const s = setup();
    const res = await s.page(`${VERIFY}?user_code=bcdf-ghjk`);
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('<title>Code not found – Acme AI</title>');
    expect(html).toContain('This code is unknown, expired, replaced by a newer one, or already used.');
    expect(html).toContain('value="BCDF-GHJK"');
  });

  it('a code past its ten minutes is not found', async () => {
    const s = setup();
    const { userCode } = await started(s);
    s.clock.advanceSeconds(599);
    expect((await s.page(`${VERIFY}?user_code=${userCode}`)).status).toBe(200);
    s.clock.advanceSeconds(1);
    expect((await s.page(`${VERIFY}?user_code=${userCode}`)).status).toBe(404);
  });

  it('30 code lookups per network in 10 minutes, then 429 with Retry-After', async () => {
    const s = setup();
    for (let i = 0; i < CLAIM_VERIFY_RATE_LIMIT.limit; i++) expect((await s.page(`${VERIFY}?user_code=bcdf-ghjk`)).status).toBe(404);
    const res = await s.page(`${VERIFY}?user_code=bcdf-ghjk`);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('600');
    const html = await res.text();
    expect(html).toContain('<title>Too many attempts – Acme AI</title>');
    expect(html).toContain('Too many codes tried; wait 600 seconds.');
    // Malformed codes are refused before they count.
    expect((await s.page(`${VERIFY}?user_code=x`)).status).toBe(400);
  });

  it('a known code: the agent, its id, when it registered and its scopes, and a form bound to a cookie', async () => {
    const s = setup();
    const { clientId, userCode } = await started(s, 'Research <agent>');
    const page = await openFormPage(s.page, `${VERIFY}?user_code=${userCode.toLowerCase().replace('-', '')}`);
    expect(page.response.status).toBe(200);
    expect(page.html).toContain('<title>Claim this registration? – Acme AI</title>');
    expect(page.html).toContain(`<p class="code">${userCode}</p>`);
    expect(page.html).toContain('<dd><bdi>Research &lt;agent&gt;</bdi> (name chosen by the agent, unverified)</dd>');
    expect(page.html).toContain(`<dd><code>${clientId}</code></dd>`);
    expect(page.html).toContain('<dd>2027-02-01 10:20 UTC</dd>');
    expect(page.html).toContain('<li><code>articles:read</code>: Search and read');
    expect(page.html).toContain('<li><code>content:export</code>: Export the whole article index');
    expect(page.action).toBe(VERIFY);
    expect(page.cookie).toMatch(/^__Host-oauth_claim_[\w-]+=[\w-]+$/);
  });

  it('approving claims the registration: a year of life, the token spent, the code dropped, the agent told', async () => {
    const s = setup();
    const { clientId, claimToken, attemptId, userCode } = await started(s, 'Research <agent>');
    s.clock.advanceSeconds(30);
    const page = await openFormPage(s.page, `${VERIFY}?user_code=${userCode}`);
    const res = await answerFormPage(s.page, page, 'approve');
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/^__Host-oauth_claim_[\w-]+=; Path=\/; Max-Age=0/);
    const html = await res.text();
    expect(html).toContain('<title>Registration claimed – Acme AI</title>');
    expect(html).toContain(`“<bdi>Research &lt;agent&gt;</bdi>” (<code>${clientId}</code>) is claimed`);
    const now = s.clock.nowSeconds();
    const client = await storedClient(s, clientId);
    expect(client).toMatchObject({ expires_at: now + CLAIMED_CLIENT_TTL_SECONDS, last_used_at: now });
    expect(client.claim).toMatchObject({
      status: 'claimed',
      token_sha256: null,
      claimed_at: now,
      attempt_sha256: await sha256Hex(attemptId),
    });
    expect((await s.grants.get<ClaimAttemptRecord>(`claim/${await sha256Hex(attemptId)}`))?.value.status).toBe('approved');
    expect(await s.grants.get(`usercode/${await sha256Hex(userCode)}`)).toBeNull();
    expect(await claim(s, { claim_attempt_id: attemptId })).toMatchObject({
      status: 200,
      body: { status: 'claimed', client_id: clientId, claimed_at: now },
    });
    expect(await claim(s, { claim_token: claimToken })).toMatchObject({ status: 409, body: { error: 'already_claimed' } });
    // The code of a claimed registration is not shown again.
    expect((await s.page(`${VERIFY}?user_code=${userCode}`)).status).toBe(404);
  });

  it('denying: the agent is told access_denied, the registration is unchanged, the code dropped', async () => {
    const s = setup();
    const { clientId, attemptId, userCode } = await started(s);
    const before = await storedClient(s, clientId);
    const page = await openFormPage(s.page, `${VERIFY}?user_code=${userCode}`);
    const res = await answerFormPage(s.page, page, 'deny');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<h1>Claim denied</h1><p>The agent will be told the claim was denied. Its registration is unchanged.</p>');
    expect(await storedClient(s, clientId)).toEqual(before);
    expect(await s.grants.get(`usercode/${await sha256Hex(userCode)}`)).toBeNull();
    expect(await claim(s, { claim_attempt_id: attemptId })).toMatchObject({
      status: 403,
      body: { error: 'access_denied', error_description: 'The claim was denied on the verification page.' },
    });
  });

  it('a form is answered once; an answer to an attempt that expired meanwhile is 410', async () => {
    const s = setup();
    const { userCode } = await started(s);
    const page = await openFormPage(s.page, `${VERIFY}?user_code=${userCode}`);
    expect((await answerFormPage(s.page, page, 'deny')).status).toBe(200);
    const again = await answerFormPage(s.page, page, 'approve');
    expect(again.status).toBe(403);
    expect(await again.text()).toContain('already answered');

    const late = await started(s);
    s.clock.advanceSeconds(100);
    const latePage = await openFormPage(s.page, `${VERIFY}?user_code=${late.userCode}`);
    s.clock.advanceSeconds(500);
    const expired = await answerFormPage(s.page, latePage, 'approve');
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('This claim attempt has expired or was already answered.');
    expect((await storedClient(s, late.clientId)).claim.status).toBe('unclaimed');
  });

  it('an approval for an attempt replaced while the page was open is a conflict, and claims nothing', async () => {
    const s = setup();
    const { clientId, claimToken, userCode } = await started(s);
    const page = await openFormPage(s.page, `${VERIFY}?user_code=${userCode}`);
    expect((await claim(s, { claim_token: claimToken })).status).toBe(200);
    const res = await answerFormPage(s.page, page, 'approve');
    expect(res.status).toBe(409);
    expect(await res.text()).toContain(
      'This registration was claimed by another attempt, replaced by a newer attempt, or no longer exists.',
    );
    expect((await storedClient(s, clientId)).claim.status).toBe('unclaimed');
  });

  it.each([
    ['no cookie', { cookie: null }, 'not opened in this browser'],
    ['a cross-site post', { headers: { 'sec-fetch-site': 'cross-site' } }, 'only be sent from this site'],
  ] as const)('CSRF: %s → 403 and nothing claimed', async (_name, override, message) => {
    const s = setup();
    const { clientId, userCode } = await started(s);
    const page = await openFormPage(s.page, `${VERIFY}?user_code=${userCode}`);
    const res = await answerFormPage(s.page, page, 'approve', override);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain(message);
    expect((await storedClient(s, clientId)).claim.status).toBe('unclaimed');
  });

  it.each([
    ['a JSON body', 'application/json', 'decision=approve', 415, 'Send the form as application/x-www-form-urlencoded.'],
    ['a body over 4 KB', 'application/x-www-form-urlencoded', `decision=approve&ticket=${'t'.repeat(4096)}`, 413, 'The form is too large.'],
    [
      'bytes that are not UTF-8',
      'application/x-www-form-urlencoded',
      new Uint8Array([0x64, 0x3d, 0xff]),
      400,
      'The form is not valid UTF-8.',
    ],
    ['two decisions', 'application/x-www-form-urlencoded', 'decision=approve&decision=approve', 400, 'Choose Approve or Deny.'],
    ['another decision', 'application/x-www-form-urlencoded', 'decision=maybe', 400, 'Choose Approve or Deny.'],
  ])('%s → %i', async (_name, contentType, body, status, message) => {
    const s = setup();
    const res = await s.page(VERIFY, { method: 'POST', headers: { 'content-type': contentType }, body });
    expect(res.status).toBe(status);
    const html = await res.text();
    expect(html).toContain('<h1>Claim failed</h1>');
    expect(html).toContain(`<p class="error" role="alert">${message}</p>`);
  });

  it('other methods: 405 with Allow; the page speaks the browser language', async () => {
    const s = setup();
    const res = await s.page(VERIFY, { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    expect(await res.text()).toContain('<h1>Method not allowed</h1>');
    const zh = await s.page(VERIFY, { headers: { 'accept-language': 'zh-CN' } });
    expect(await zh.text()).toContain('<h1>认领智能体注册</h1>');
  });
});

describe('the claim ceremony at its edges', () => {
  it('a body that is a JSON number is refused as not an object', async () => {
    expect((await claim(setup(), '7')).body.error_description).toBe('The body must be a JSON object.');
  });

  it('the start limit resets with its window; so does the lookup limit', async () => {
    const s = setup();
    const { claimToken } = await register(s);
    for (let i = 0; i < CLAIM_START_RATE_LIMIT.limit; i++) await claim(s, { claim_token: claimToken });
    expect((await claim(s, { claim_token: claimToken })).status).toBe(429);
    s.clock.advanceSeconds(3600);
    expect((await claim(s, { claim_token: claimToken })).status).toBe(200);
    for (let i = 0; i < CLAIM_VERIFY_RATE_LIMIT.limit; i++) await s.page(`${VERIFY}?user_code=bcdf-ghjk`);
    expect((await s.page(`${VERIFY}?user_code=bcdf-ghjk`)).status).toBe(429);
    s.clock.advanceSeconds(600);
    expect((await s.page(`${VERIFY}?user_code=bcdf-ghjk`)).status).toBe(404);
  });

  it('a start that cannot store a fresh user code in five tries: 503, nothing half-written on the registration', async () => {
    const s = setup();
    const { clientId, claimToken } = await register(s);
    const grants = s.grants;
    let tries = 0;
    s.deps = {
      ...s.deps,
      grants: {
        ...grants,
        set: async (key, value, condition) => {
          if (key.startsWith('usercode/') && condition && 'onlyIfNew' in condition && condition.onlyIfNew) {
            tries++;
            return { modified: false };
          }
          return grants.set(key, value, condition);
        },
      },
    };
    const answer = await claim(s, { claim_token: claimToken });
    expect(answer).toMatchObject({
      status: 503,
      body: { error: 'temporarily_unavailable', error_description: 'Could not allocate a user code; retry.' },
    });
    expect(tries).toBe(5);
    expect((await storedClient(s, clientId)).claim.attempt_sha256).toBeUndefined();
  });

  it('a start that loses every write of the registration: 503 busy, retry in a second', async () => {
    const s = setup();
    const { claimToken } = await register(s);
    const clients = s.clients;
    s.deps = {
      ...s.deps,
      clients: { ...clients, set: async (key, value, condition) => (condition ? { modified: false } : clients.set(key, value)) },
    };
    const answer = await claim(s, { claim_token: claimToken });
    expect(answer).toMatchObject({
      status: 503,
      body: { error: 'temporarily_unavailable', error_description: 'The registration is busy; retry shortly.' },
    });
    expect(answer.headers.get('retry-after')).toBe('1');
  });

  it('a registration claimed while a start was under way: the start says already claimed', async () => {
    const s = setup();
    const { clientId, claimToken } = await register(s);
    const clients = s.clients;
    let reads = 0;
    s.deps = {
      ...s.deps,
      clients: {
        ...clients,
        get: async <T>(key: string) => {
          const found = await clients.get<T>(key);
          // The start's first read of the registration sees it unclaimed; the claim lands right after.
          if (key === clientKey(clientId) && ++reads === 1) {
            const current = (await clients.get<ClientRecord>(key))!.value;
            await clients.set(key, { ...current, claim: { ...current.claim, status: 'claimed', token_sha256: null } });
          }
          return found;
        },
      },
    };
    expect(await claim(s, { claim_token: claimToken })).toMatchObject({
      status: 409,
      body: { error: 'already_claimed', error_description: 'This registration is already claimed.' },
    });
  });

  it('a start racing the approval is refused as already claimed and changes nothing: the approved attempt polls claimed', async () => {
    // s10a: the refused start had moved the registration's attempt pointer to its own attempt, so the approved one polled
    // invalid_claim_attempt. Here the approval lands right after the start's first read of the registration.
    const s = setup();
    const first = await started(s);
    const page = await openFormPage(s.page, `${VERIFY}?user_code=${first.userCode}`);
    const before = { codes: await s.grants.list('usercode/'), attempts: await s.grants.list('claim/') };
    const clients = s.clients;
    let approval: Response | undefined;
    s.deps = {
      ...s.deps,
      clients: {
        ...clients,
        get: async <T>(key: string) => {
          const found = await clients.get<T>(key);
          if (key === clientKey(first.clientId) && !approval) approval = await answerFormPage(s.page, page, 'approve');
          return found;
        },
      },
    };
    expect(await claim(s, { claim_token: first.claimToken })).toMatchObject({ status: 409, body: { error: 'already_claimed' } });
    expect(approval?.status).toBe(200);
    expect((await storedClient(s, first.clientId)).claim).toMatchObject({
      status: 'claimed',
      attempt_sha256: await sha256Hex(first.attemptId),
    });
    // Nothing of the refused start is left: no user code (the approval dropped the first one), no attempt.
    expect(before.codes).toHaveLength(1);
    expect(await s.grants.list('usercode/')).toEqual([]);
    expect((await s.grants.list('claim/')).sort()).toEqual(before.attempts.sort());
    s.clock.advanceSeconds(5);
    expect(await claim(s, { claim_attempt_id: first.attemptId })).toMatchObject({
      status: 200,
      body: { status: 'claimed', client_id: first.clientId },
    });
  });

  it('an attempt replaced and then beaten by the newer one is told it was replaced, not claimed', async () => {
    const s = setup();
    const first = await started(s);
    const second = await claim(s, { claim_token: first.claimToken });
    const page = await openFormPage(s.page, `${VERIFY}?user_code=${second.body.user_code}`);
    expect((await answerFormPage(s.page, page, 'approve')).status).toBe(200);
    s.clock.advanceSeconds(5);
    expect((await claim(s, { claim_attempt_id: first.attemptId })).body.error).toBe('invalid_claim_attempt');
    expect((await claim(s, { claim_attempt_id: String(second.body.claim_attempt_id) })).body.status).toBe('claimed');
  });

  it('a registration deleted while the page was open: the approval is a conflict', async () => {
    const s = setup();
    const { clientId, userCode } = await started(s);
    const page = await openFormPage(s.page, `${VERIFY}?user_code=${userCode}`);
    await s.clients.delete(clientKey(clientId));
    expect((await answerFormPage(s.page, page, 'approve')).status).toBe(409);
  });

  it('two pages for one code: after Deny on one, Approve on the other finds the attempt answered (410)', async () => {
    const s = setup();
    const { clientId, userCode } = await started(s);
    const a = await openFormPage(s.page, `${VERIFY}?user_code=${userCode}`);
    const b = await openFormPage(s.page, `${VERIFY}?user_code=${userCode}`);
    expect((await answerFormPage(s.page, a, 'deny')).status).toBe(200);
    expect((await answerFormPage(s.page, b, 'approve')).status).toBe(410);
    expect((await storedClient(s, clientId)).claim.status).toBe('unclaimed');
  });

  it('an attempt record gone: the answer is 410', async () => {
    const s = setup();
    const { attemptId, userCode } = await started(s);
    const page = await openFormPage(s.page, `${VERIFY}?user_code=${userCode}`);
    await s.grants.delete(`claim/${await sha256Hex(attemptId)}`);
    expect((await answerFormPage(s.page, page, 'approve')).status).toBe(410);
  });

  it('the plain form page has exactly the page headers', async () => {
    const s = setup();
    const res = await s.page(VERIFY);
    expect([...res.headers.keys()].sort()).toEqual([
      'cache-control',
      'content-security-policy',
      'content-type',
      'cross-origin-opener-policy',
      'permissions-policy',
      'pragma',
      'referrer-policy',
      'strict-transport-security',
      'x-content-type-options',
      'x-frame-options',
    ]);
    expect(await res.text()).toContain('Enter the code the agent shows you.</p>\n\n<form');
  });

  it('the confirm page lists the scopes one per line', async () => {
    const s = setup();
    const { userCode } = await started(s);
    const html = await (await s.page(`${VERIFY}?user_code=${userCode}`)).text();
    expect(html).toMatch(/<\/li>\n<li><code>content:export<\/code>/);
  });
});

describe('claimRoutes (the two endpoints of oauth-claim.mts, each at its own edge)', () => {
  it('/oauth/claim is the JSON endpoint with RFC 6749 errors and CORS; /oauth/claim/verify the page', async () => {
    const s = setup();
    const routes = claimRoutes(() => s.deps);
    const json = await routes(
      new Request(`${ORIGIN}/oauth/claim`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
    );
    expect(json.status).toBe(400);
    expect(((await json.json()) as { error: string }).error).toBe('invalid_request');
    expect(json.headers.get('access-control-allow-origin')).toBe('*');
    const page = await routes(new Request(`${ORIGIN}${VERIFY}`));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a failure is each route’s own logged 500: RFC 6749 JSON for the agent, a page for the person', async () => {
    const routes = claimRoutes((): ClaimDeps => {
      throw new Error('Blobs down');
    });
    const quiet = console.error;
    console.error = () => {};
    try {
      const json = await routes(
        new Request(`${ORIGIN}/oauth/claim`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      );
      expect(json.status).toBe(500);
      expect(((await json.json()) as { error: string }).error).toBe('server_error');
      const page = await routes(new Request(`${ORIGIN}${VERIFY}`));
      expect(page.status).toBe(500);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    } finally {
      console.error = quiet;
    }
  });
});
