/**
 * The claim ceremony (auth.md convention, adapted to a service without accounts; the shape of
 * RFC 8628's device flow):
 *
 * 1. Registration returned a one-time `claim_token` (stored as a digest, indexed by
 *    `claimtoken/<digest>`).
 * 2. `POST /oauth/claim {"claim_token"}` starts an attempt: a secret `claim_attempt_id`, a short
 *    `user_code` and the `verification_uri` a person opens. A new start replaces the previous attempt.
 * 3. The person opens the page, compares the code with the one the agent shows, and approves (a
 *    consent step; nobody is identified).
 * 4. The agent polls `POST /oauth/claim {"claim_attempt_id"}` every `interval` seconds until
 *    `status: "claimed"`. A claimed registration expires only after a year without use (not
 *    30 days); its claim token is spent.
 *
 * Errors are JSON `{error, error_description}` with stable codes: `invalid_request`,
 * `invalid_claim_token`, `expired_claim_token`, `already_claimed`, `invalid_claim_attempt`,
 * `expired_claim_attempt`, `access_denied`, `slow_down`, `rate_limited`.
 * @module
 */
import { edge, type EdgeOptions } from '../../kernel/handler.ts';
import { escapeHtml, htmlPage, htmlResponse, PAGE_ERRORS } from '../../kernel/html.ts';
import { type PageText, pageTextFor } from '../page-text.ts';
import { parseClientJson, TOO_DEEP_MESSAGE } from '../../kernel/json-body.ts';
import { contentCodingMessage, mediaTypeOf, readBody } from '../../kernel/respond.ts';
import { busyText, consume } from '../../kernel/rate-limit.ts';
import type { Store } from '../../kernel/store.ts';
import { setExpiring } from '../../kernel/expiry.ts';
import { ORPHAN_GRACE_SECONDS } from '../grants/sweep.ts';
import { CLAIM_ATTEMPT_TTL_SECONDS, CLAIM_POLL_INTERVAL_SECONDS, CLAIMED_CLIENT_TTL_SECONDS, OAUTH_PATHS } from '../config.ts';
import { clientKey, clientNameHtml, getClient, isExpired, type ClientRecord } from '../grants/clients.ts';
import type { OAuthDeps } from '../deps.ts';
import { bodyTooLargeError, contentCodingError, OAUTH_ENDPOINT_EDGE, OAuthError, oauthJson } from '../errors.ts';
import { assertSameOrigin, consumeTicket, InteractionError, issueTicket, verifyTicket } from './interaction.ts';
import { randomSecret, sha256Hex } from '../../kernel/crypto.ts';

export interface ClaimDeps extends OAuthDeps {
  limits: Store;
  /** Keyed digest of the client's network, an IPv4 address or IPv6 /64 (kernel/ip-ranges.ts, ip-digest.ts): no address reaches the core. */
  clientNetworkDigest: string;
  siteName: string;
}

/** Claim starts per client network and hour. */
export const CLAIM_START_RATE_LIMIT = { limit: 30, windowSeconds: 3600 } as const;
/** User-code lookups on the verification page per client network and 10 minutes (8 letters of 20: guessing is hopeless at this rate). */
export const CLAIM_VERIFY_RATE_LIMIT = { limit: 30, windowSeconds: 600 } as const;
/** Largest `POST /oauth/claim` body and verification form (413 beyond). */
export const CLAIM_BODY_LIMIT_BYTES = 4 * 1024;
/** RFC 8628 §6.1: consonants only (no vowels, so no words; no look-alikes), 8 characters ≈ 34.6 bits. */
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const USER_CODE_LENGTH = 8;
const CAS_ATTEMPTS = 8;

export interface ClaimAttemptRecord {
  client_id: string;
  status: 'pending' | 'approved' | 'denied';
  expires_at: number;
  last_polled_at: number;
}

export const claimTokenKey = (digest: string): string => `claimtoken/${digest}`;
const attemptKey = (digest: string): string => `claim/${digest}`;
const userCodeKey = (digest: string): string => `usercode/${digest}`;

/** Generates a user code, shown as `XXXX-XXXX`. Rejection sampling keeps it uniform. */
export function generateUserCode(): string {
  const out: string[] = [];
  while (out.length < USER_CODE_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(16))) {
      if (byte < 240 && out.length < USER_CODE_LENGTH) out.push(USER_CODE_ALPHABET[byte % 20]!);
    }
  }
  return `${out.slice(0, 4).join('')}-${out.slice(4).join('')}`;
}

/** What a person typed, in canonical form: letters only, upper case; null when it cannot be a code. */
export function normalizeUserCode(input: string): string | null {
  const letters = input.toUpperCase().replace(/[^A-Z]/g, '');
  if (letters.length !== USER_CODE_LENGTH || [...letters].some((c) => !USER_CODE_ALPHABET.includes(c))) return null;
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}

/**
 * Changes a registration with compare-and-set: `change` returns the new record, or null to leave it
 * as it is (then the record read is returned, unwritten). Null when the registration is gone.
 */
async function updateClient(
  store: Store,
  clientId: string,
  change: (client: ClientRecord) => ClientRecord | null,
): Promise<ClientRecord | null> {
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
    const current = await store.get<ClientRecord>(clientKey(clientId));
    if (!current) return null;
    const next = change(current.value);
    if (!next) return current.value;
    if ((await store.set(clientKey(clientId), next, { onlyIfMatch: current.etag })).modified) return next;
  }
  throw new OAuthError('temporarily_unavailable', 'The registration is busy; retry shortly.', { headers: { 'retry-after': '1' } });
}

async function readClaimBody(req: Request): Promise<Record<string, unknown>> {
  if (req.method !== 'POST')
    throw new OAuthError('invalid_request', 'Use POST with a JSON body.', { status: 405, headers: { allow: 'POST, OPTIONS' } });
  if (mediaTypeOf(req) !== 'application/json')
    throw new OAuthError('invalid_request', 'Send a JSON body (application/json).', { status: 415 });
  const read = await readBody(req, CLAIM_BODY_LIMIT_BYTES);
  if (!read.ok && read.problem === 'encoded') throw contentCodingError(read.coding);
  if (!read.ok && read.problem === 'too-large') throw bodyTooLargeError(CLAIM_BODY_LIMIT_BYTES);
  if (!read.ok) throw new OAuthError('invalid_request', 'The body is not valid UTF-8.');
  const parsed = parseClientJson(read.text);
  if (!parsed.ok)
    throw new OAuthError(
      'invalid_request',
      parsed.problem === 'too-deep' ? `The body is refused: ${TOO_DEEP_MESSAGE}.` : 'The body is not valid JSON.',
    );
  const body = parsed.value;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new OAuthError('invalid_request', 'The body must be a JSON object.');
  return body as Record<string, unknown>;
}

async function startClaim(claimToken: string, deps: ClaimDeps): Promise<Response> {
  const now = deps.nowSeconds();
  const limited = await consume(deps.limits, `claim/${deps.clientNetworkDigest}`, CLAIM_START_RATE_LIMIT, now * 1000);
  if (!limited.allowed)
    throw new OAuthError(
      'rate_limited',
      limited.contended
        ? busyText('Claim start is')
        : `At most ${CLAIM_START_RATE_LIMIT.limit} claim starts per hour; retry in ${limited.retryAfterSeconds} s.`,
      { headers: { 'retry-after': String(limited.retryAfterSeconds) } },
    );
  const tokenDigest = await sha256Hex(claimToken);
  const index = await deps.clients.get<{ client_id: string }>(claimTokenKey(tokenDigest));
  const client = index ? await getClient(deps.clients, index.value.client_id) : null;
  if (!client || isExpired(client, now)) {
    throw new OAuthError('invalid_claim_token', 'The claim_token is not valid (unknown, spent, or its registration has expired).');
  }
  if (client.claim.status === 'claimed' || client.claim.token_sha256 !== tokenDigest)
    throw new OAuthError('already_claimed', 'This registration is already claimed.', { status: 409 });
  if (client.claim.token_expires_at <= now) throw new OAuthError('expired_claim_token', 'The claim_token has expired.', { status: 410 });

  const attemptId = `cla_${randomSecret(24)}`;
  const attemptDigest = await sha256Hex(attemptId);
  let userCode = '';
  let userCodeDigest = '';
  for (let tries = 0; ; tries++) {
    userCode = generateUserCode();
    userCodeDigest = await sha256Hex(userCode);
    const written = await setExpiring(
      deps.grants,
      userCodeKey(userCodeDigest),
      { attempt_sha256: attemptDigest, client_id: client.client_id, expires_at: now + CLAIM_ATTEMPT_TTL_SECONDS },
      now + CLAIM_ATTEMPT_TTL_SECONDS,
      { onlyIfNew: true },
    );
    if (written.modified) break;
    if (tries >= 4) throw new OAuthError('temporarily_unavailable', 'Could not allocate a user code; retry.', { status: 503 });
  }
  const attempt: ClaimAttemptRecord = {
    client_id: client.client_id,
    status: 'pending',
    expires_at: now + CLAIM_ATTEMPT_TTL_SECONDS,
    last_polled_at: now,
  };
  await setExpiring(deps.grants, attemptKey(attemptDigest), attempt, attempt.expires_at + ORPHAN_GRACE_SECONDS, { onlyIfNew: true });
  // The newest attempt is the only live one: an older user code stops working. A registration claimed
  // since it was read above keeps the attempt that claimed it (its agent polls `claimed`).
  const updated = await updateClient(deps.clients, client.client_id, (c) =>
    c.claim.status === 'claimed' ? null : { ...c, claim: { ...c.claim, attempt_sha256: attemptDigest } },
  );
  if (!updated || updated.claim.status === 'claimed') {
    // Refused: the code and attempt written above go too, so a refused start leaves nothing behind.
    await Promise.all([deps.grants.delete(userCodeKey(userCodeDigest)), deps.grants.delete(attemptKey(attemptDigest))]);
    throw new OAuthError('already_claimed', 'This registration is already claimed.', { status: 409 });
  }
  const verificationUri = deps.config.endpoints.claimVerify;
  return oauthJson({
    status: 'pending',
    client_id: client.client_id,
    claim_attempt_id: attemptId,
    user_code: userCode,
    verification_uri: verificationUri,
    verification_uri_complete: `${verificationUri}?user_code=${userCode}`,
    expires_in: CLAIM_ATTEMPT_TTL_SECONDS,
    interval: CLAIM_POLL_INTERVAL_SECONDS,
  });
}

async function pollClaim(attemptId: string, deps: ClaimDeps): Promise<Response> {
  const now = deps.nowSeconds();
  const digest = await sha256Hex(attemptId);
  const found = await deps.grants.get<ClaimAttemptRecord>(attemptKey(digest));
  if (!found) throw new OAuthError('invalid_claim_attempt', 'The claim_attempt_id is not valid.');
  const attempt = found.value;
  const client = await getClient(deps.clients, attempt.client_id);
  if (!client) throw new OAuthError('invalid_claim_attempt', 'The registration of this claim attempt no longer exists.');
  // The client record is the source of truth: claimed by this very attempt means done.
  if (client.claim.status === 'claimed' && client.claim.attempt_sha256 === digest) {
    return oauthJson({ status: 'claimed', client_id: client.client_id, claimed_at: client.claim.claimed_at ?? null });
  }
  if (client.claim.attempt_sha256 !== digest)
    throw new OAuthError(
      'invalid_claim_attempt',
      'This claim attempt was replaced by a newer one or the registration was claimed by another attempt.',
    );
  if (attempt.status === 'denied') throw new OAuthError('access_denied', 'The claim was denied on the verification page.', { status: 403 });
  if (attempt.expires_at <= now)
    throw new OAuthError('expired_claim_attempt', 'The claim attempt expired; start a new one with the claim_token.', { status: 410 });
  if (now - attempt.last_polled_at < CLAIM_POLL_INTERVAL_SECONDS) {
    throw new OAuthError('slow_down', `Poll at most every ${CLAIM_POLL_INTERVAL_SECONDS} s.`, {
      status: 400,
      headers: { 'retry-after': String(CLAIM_POLL_INTERVAL_SECONDS) },
    });
  }
  await deps.grants.set(attemptKey(digest), { ...attempt, last_polled_at: now }, { onlyIfMatch: found.etag });
  return oauthJson({
    status: 'pending',
    client_id: client.client_id,
    expires_in: attempt.expires_at - now,
    interval: CLAIM_POLL_INTERVAL_SECONDS,
  });
}

/** `POST /oauth/claim`: start (with `claim_token`) or poll (with `claim_attempt_id`). */
export async function handleClaim(req: Request, deps: ClaimDeps): Promise<Response> {
  const body = await readClaimBody(req);
  const { claim_token: claimToken, claim_attempt_id: attemptId } = body;
  if ((claimToken === undefined) === (attemptId === undefined))
    throw new OAuthError('invalid_request', 'Send exactly one of claim_token (to start a claim) or claim_attempt_id (to poll it).');
  if (claimToken !== undefined) {
    if (typeof claimToken !== 'string' || !/^clm_[A-Za-z0-9_-]{16,100}$/.test(claimToken))
      throw new OAuthError('invalid_claim_token', 'claim_token must be the clm_… string returned by registration.');
    return startClaim(claimToken, deps);
  }
  if (typeof attemptId !== 'string' || !/^cla_[A-Za-z0-9_-]{16,100}$/.test(attemptId))
    throw new OAuthError('invalid_claim_attempt', 'claim_attempt_id must be the cla_… string returned when the claim started.');
  return pollClaim(attemptId, deps);
}

// ---------------------------------------------------------------------------------------------
// The verification page a person opens.

interface ClaimTicket {
  attempt_sha256: string;
  client_id: string;
  user_code: string;
}

/** The dependencies plus the words of the page, in the browser's language. */
type PageDeps = ClaimDeps & { text: PageText };

function codeForm(deps: PageDeps, message?: string, value = ''): string {
  const { text } = deps;
  return `<h1>${escapeHtml(text.claimHeading)}</h1>
<p>${escapeHtml(text.claimIntro(deps.siteName))}</p>
${message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : ''}
<form method="get" action="${escapeHtml(deps.config.endpoints.claimVerify)}">
<label for="user_code">${escapeHtml(text.code)}</label>
<input type="text" id="user_code" name="user_code" value="${escapeHtml(value)}" autocomplete="off" autocapitalize="characters" spellcheck="false" required>
<button type="submit">${escapeHtml(text.continue)}</button>
</form>`;
}

async function page(deps: PageDeps, title: string, body: string, status = 200, headers: [string, string][] = []): Promise<Response> {
  return htmlResponse(htmlPage(`${title} – ${deps.siteName}`, body, deps.text.htmlLang), { status, headers });
}

/** A failure page: heading and one message. */
function failure(deps: PageDeps, message: string, status: number, headers: [string, string][] = []): Promise<Response> {
  return page(
    deps,
    deps.text.claimFailed,
    `<h1>${escapeHtml(deps.text.claimFailed)}</h1><p class="error" role="alert">${escapeHtml(message)}</p>`,
    status,
    headers,
  );
}

async function showVerification(req: Request, deps: PageDeps): Promise<Response> {
  const { text } = deps;
  const raw = new URL(req.url).searchParams.get('user_code');
  if (raw === null) return page(deps, text.claimTitle, codeForm(deps));
  const userCode = normalizeUserCode(raw);
  if (!userCode) return page(deps, text.claimTitle, codeForm(deps, text.badCode, raw.slice(0, 20)), 400);
  const now = deps.nowSeconds();
  const limited = await consume(deps.limits, `claim-verify/${deps.clientNetworkDigest}`, CLAIM_VERIFY_RATE_LIMIT, now * 1000);
  if (!limited.allowed)
    return page(deps, text.tooManyTitle, codeForm(deps, (limited.contended ? text.busy : text.tooMany)(limited.retryAfterSeconds)), 429, [
      ['retry-after', String(limited.retryAfterSeconds)],
    ]);
  const entry = await deps.grants.get<{ attempt_sha256: string; client_id: string; expires_at: number }>(
    userCodeKey(await sha256Hex(userCode)),
  );
  const client = entry && entry.value.expires_at > now ? await getClient(deps.clients, entry.value.client_id) : null;
  if (!entry || !client || client.claim.attempt_sha256 !== entry.value.attempt_sha256 || client.claim.status === 'claimed') {
    return page(deps, text.codeNotFoundTitle, codeForm(deps, text.codeNotFound, userCode), 404);
  }
  const { ticket, setCookie } = await issueTicket<ClaimTicket & Record<string, unknown>>(await deps.keys(), {
    issuer: deps.config.issuer,
    audience: deps.config.endpoints.claimVerify,
    kind: 'claim',
    payload: { attempt_sha256: entry.value.attempt_sha256, client_id: client.client_id, user_code: userCode },
    nowSeconds: now,
  });
  const scopes = client.scope.map((s) => `<li><code>${escapeHtml(s)}</code>: ${escapeHtml(text.scope(s))}</li>`).join('\n');
  const NAME = '\u0000name\u0000';
  const body = `<h1>${escapeHtml(text.claimConfirmHeading)}</h1>
<p>${escapeHtml(text.checkCode)}</p>
<p class="code">${escapeHtml(userCode)}</p>
<dl>
<dt>${escapeHtml(text.agent)}</dt><dd>${escapeHtml(text.agentName(NAME)).replace(NAME, clientNameHtml(client.client_name, escapeHtml))}</dd>
<dt>${escapeHtml(text.clientId)}</dt><dd><code>${escapeHtml(client.client_id)}</code></dd>
<dt>${escapeHtml(text.registered)}</dt><dd>${new Date(client.client_id_issued_at * 1000).toISOString().replace('T', ' ').slice(0, 16)} UTC</dd>
</dl>
<h2>${escapeHtml(text.permissions)}</h2>
<ul>
${scopes}
</ul>
<p>${escapeHtml(text.claimNote(deps.siteName))}</p>
<form class="actions" method="post" action="${escapeHtml(deps.config.endpoints.claimVerify)}">
<input type="hidden" name="ticket" value="${escapeHtml(ticket)}">
<button type="submit" name="decision" value="approve">${escapeHtml(text.approve)}</button>
<button type="submit" name="decision" value="deny">${escapeHtml(text.deny)}</button>
</form>`;
  return page(deps, text.claimConfirmTitle, body, 200, [['set-cookie', setCookie]]);
}

async function answerVerification(req: Request, deps: PageDeps): Promise<Response> {
  const words = deps.text;
  if (mediaTypeOf(req) !== 'application/x-www-form-urlencoded')
    return failure(deps, 'Send the form as application/x-www-form-urlencoded.', 415);
  const read = await readBody(req, CLAIM_BODY_LIMIT_BYTES);
  if (!read.ok && read.problem === 'encoded') return failure(deps, contentCodingMessage(read.coding), 415);
  if (!read.ok)
    return failure(
      deps,
      read.problem === 'too-large' ? 'The form is too large.' : 'The form is not valid UTF-8.',
      read.problem === 'too-large' ? 413 : 400,
    );
  const form = new URLSearchParams(read.text);
  const decision = form.get('decision');
  if (form.getAll('decision').length !== 1 || (decision !== 'approve' && decision !== 'deny'))
    return failure(deps, words.chooseDecision, 400);
  const now = deps.nowSeconds();
  let ticket: ClaimTicket;
  let clearCookie: string;
  try {
    assertSameOrigin(req, deps.config.issuer);
    const verified = await verifyTicket<ClaimTicket>(await deps.keys(), {
      issuer: deps.config.issuer,
      audience: deps.config.endpoints.claimVerify,
      kind: 'claim',
      ticket: form.get('ticket') ?? '',
      cookieHeader: req.headers.get('cookie'),
      nowSeconds: now,
    });
    ({ payload: ticket, clearCookie } = verified);
    await consumeTicket(deps.grants, verified);
  } catch (error) {
    if (error instanceof InteractionError) return failure(deps, error.message, 403);
    throw error;
  }
  const headers: [string, string][] = [['set-cookie', clearCookie]];
  const attempt = await deps.grants.get<ClaimAttemptRecord>(attemptKey(ticket.attempt_sha256));
  if (!attempt || attempt.value.expires_at <= now || attempt.value.status !== 'pending') {
    return failure(deps, words.claimExpired, 410, headers);
  }
  if (decision === 'deny') {
    await deps.grants.set(attemptKey(ticket.attempt_sha256), { ...attempt.value, status: 'denied' }, { onlyIfMatch: attempt.etag });
    await deps.grants.delete(userCodeKey(await sha256Hex(ticket.user_code)));
    return page(
      deps,
      words.claimDeniedTitle,
      `<h1>${escapeHtml(words.claimDeniedTitle)}</h1><p>${escapeHtml(words.claimDenied)}</p>`,
      200,
      headers,
    );
  }
  const claimed = await updateClient(deps.clients, ticket.client_id, (c) => {
    if (c.claim.status === 'claimed' || c.claim.attempt_sha256 !== ticket.attempt_sha256) return null;
    return {
      ...c,
      expires_at: now + CLAIMED_CLIENT_TTL_SECONDS,
      last_used_at: now,
      claim: { ...c.claim, status: 'claimed', token_sha256: null, claimed_at: now },
    };
  });
  if (claimed?.claim.status !== 'claimed' || claimed.claim.attempt_sha256 !== ticket.attempt_sha256) {
    return failure(deps, words.claimConflict, 409, headers);
  }
  // The claim token is spent (its digest is gone from the client; its index stays so a reuse is
  // told "already claimed"); the user code is dropped and the attempt marked.
  await deps.grants.set(attemptKey(ticket.attempt_sha256), { ...attempt.value, status: 'approved' });
  await deps.grants.delete(userCodeKey(await sha256Hex(ticket.user_code)));
  deps.usage?.count('oauth.registration.claim');
  return page(
    deps,
    words.claimedTitle,
    `<h1>${escapeHtml(words.claimedTitle)}</h1><p>${words.claimed(clientNameHtml(claimed.client_name, escapeHtml), escapeHtml(claimed.client_id))}</p>`,
    200,
    headers,
  );
}

/** `GET|POST /oauth/claim/verify`: the page a person opens to approve a claim. */
export async function handleClaimVerification(req: Request, claimDeps: ClaimDeps): Promise<Response> {
  const deps: PageDeps = { ...claimDeps, text: pageTextFor(req) };
  if (req.method === 'GET') return showVerification(req, deps);
  if (req.method === 'POST') return answerVerification(req, deps);
  const res = await page(deps, deps.text.methodNotAllowed, `<h1>${escapeHtml(deps.text.methodNotAllowed)}</h1>`, 405);
  res.headers.set('allow', 'GET, HEAD, POST, OPTIONS');
  return res;
}

/** The edge of the verification page: a page (its errors are pages too), no CORS. */
export const CLAIM_VERIFICATION_EDGE: EdgeOptions = { methods: ['GET', 'POST'], errors: PAGE_ERRORS };

/**
 * The claim ceremony's two endpoints behind one route, each with its own edge: the agent's JSON
 * endpoint ({@link OAUTH_ENDPOINT_EDGE}) and the page a person opens ({@link CLAIM_VERIFICATION_EDGE}).
 */
export function claimRoutes<Rest extends unknown[]>(
  deps: (req: Request, ...rest: Rest) => ClaimDeps | Promise<ClaimDeps>,
): (req: Request, ...rest: Rest) => Promise<Response> {
  const claim = edge(async (req: Request, ...rest: Rest) => handleClaim(req, await deps(req, ...rest)), OAUTH_ENDPOINT_EDGE);
  const verify = edge(
    async (req: Request, ...rest: Rest) => handleClaimVerification(req, await deps(req, ...rest)),
    CLAIM_VERIFICATION_EDGE,
  );
  return (req, ...rest) => (new URL(req.url).pathname === OAUTH_PATHS.claim ? claim : verify)(req, ...rest);
}
