/**
 * `GET|POST /oauth/authorize`: the authorization endpoint (RFC 6749 §4.1, RFC 7636, RFC 9207,
 * RFC 9700) with a consent page for anonymous agents.
 *
 * Order matters (RFC 6749 §4.1.2.1): the client and the redirect URI are checked first, and while
 * either is in doubt the answer is an error page that never redirects. Only then do errors travel
 * back to the client as `?error=…&state=…&iss=…`. The page shows the (unverified) client name, the
 * redirect host and the scopes; Approve / Deny post back with a ticket bound to a cookie
 * (see interaction.ts), and the answer is a 303 to the client.
 * @module
 */
import { contentCodingMessage, mediaTypeOf, readBody } from '../../kernel/respond.ts';
import { busyText, consume } from '../../kernel/rate-limit.ts';
import type { Store } from '../../kernel/store.ts';
import type { EdgeOptions } from '../../kernel/handler.ts';
import { escapeHtml, htmlPage, htmlResponse, PAGE_ERRORS, seeOther } from '../../kernel/html.ts';
import { intersectScope, type Scope } from '../config.ts';
import { type PageText, pageTextFor } from '../page-text.ts';
import { findClient } from '../grants/client-lookup.ts';
import { clientNameHtml, isExpired, plainClientName, type ClientRecord } from '../grants/clients.ts';
import { issueCode } from '../grants/codes.ts';
import type { OAuthDeps } from '../deps.ts';
import { OAuthError, type OAuthErrorCode } from '../errors.ts';
import { assertSameOrigin, consumeTicket, InteractionError, issueTicket, verifyTicket } from './interaction.ts';
import { matchRedirectUri } from '../grants/redirect-uris.ts';
import { randomSecret } from '../../kernel/crypto.ts';

export interface AuthorizeDeps extends OAuthDeps {
  /** Shown on the pages. */
  siteName: string;
  /** Where consent answers per client network are counted ({@link CONSENT_ANSWER_RATE_LIMIT}); absent: not limited. */
  limits?: Store;
  /** Keyed digest of the client's network (kernel/ip-ranges.ts clientNetwork, kernel/ip-digest.ts). */
  clientNetworkDigest?: () => Promise<string>;
}

/**
 * Consent answers (Approve or Deny) per client network: a person answers a handful; each approval
 * stores a code for an hour, so a script approving in a loop is bounded like everyone else.
 */
export const CONSENT_ANSWER_RATE_LIMIT = { limit: 60, windowSeconds: 600 } as const;

/** The validated request, signed into the consent form's ticket. */
export interface ConsentRequest {
  client_id: string;
  redirect_uri: string;
  redirect_uri_in_request: boolean;
  state: string | null;
  code_challenge: string;
  scope: string;
  resource: string;
}

/** PKCE S256 challenges are base64url SHA-256 digests: exactly 43 characters (RFC 7636 §4.2). */
const S256_CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** Longest `state` echoed back. */
const STATE_MAX_LENGTH = 1024;
/** Longest authorization request query or consent post. */
const REQUEST_MAX_BYTES = 8 * 1024;
/** `redirect_uri` with the response parameters added (its own query kept), `iss` exactly once (RFC 9207). */
export function authorizationResponseUrl(redirectUri: string, issuer: string, params: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  url.searchParams.set('iss', issuer);
  return url.href;
}

class PageError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

/** An error reported to the client at its (verified) redirect URI. */
class RedirectError extends Error {
  readonly code: OAuthErrorCode;
  readonly request: ConsentRequest;
  constructor(code: OAuthErrorCode, message: string, request: ConsentRequest) {
    super(message);
    this.code = code;
    this.request = request;
  }
}

/** The dependencies plus the words of the page, in the browser's language. */
type PageDeps = AuthorizeDeps & { text: PageText };

/** An error page: the request is not trustworthy enough to send anything to the redirect URI. */
async function errorPage(status: number, message: string, deps: PageDeps, headers: Record<string, string> = {}): Promise<Response> {
  const { text, siteName } = deps;
  const body = `<h1>${escapeHtml(text.authorizationFailed)}</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>
<p>${escapeHtml(text.nothingSent(siteName))}</p>`;
  return htmlResponse(htmlPage(`${text.authorizationFailed} – ${siteName}`, body, text.htmlLang), { status, headers });
}

function singleParams(search: URLSearchParams): { params: Map<string, string>; duplicated: string[] } {
  const params = new Map<string, string>();
  const duplicated: string[] = [];
  for (const [name, value] of search) {
    if (params.has(name)) duplicated.push(name);
    else params.set(name, value);
  }
  return { params, duplicated };
}

async function usableClient(deps: AuthorizeDeps, clientId: string | undefined): Promise<ClientRecord> {
  if (!clientId) throw new PageError(400, 'The request has no client_id.');
  let client: ClientRecord | null;
  try {
    client = await findClient(deps, clientId, deps.nowSeconds());
  } catch (error) {
    // A metadata document that cannot be used (or too many fetched): say why, on the page (never a redirect).
    if (error instanceof OAuthError) throw new PageError(error.status === 429 ? 429 : 400, error.message, error.headers);
    throw error;
  }
  if (!client || isExpired(client, deps.nowSeconds()))
    throw new PageError(400, 'The client_id is not registered here, or its registration has expired.');
  if (!client.grant_types.includes('authorization_code'))
    throw new PageError(400, 'This client is not registered for the authorization_code grant.');
  return client;
}

/** Validates an authorization request; page errors first, then errors for the redirect URI. */
async function validateRequest(search: URLSearchParams, deps: AuthorizeDeps): Promise<{ client: ClientRecord; request: ConsentRequest }> {
  const { params, duplicated } = singleParams(search);
  if (duplicated.includes('client_id') || duplicated.includes('redirect_uri'))
    throw new PageError(400, 'client_id and redirect_uri must each appear once.');
  const client = await usableClient(deps, params.get('client_id'));
  const requested = params.get('redirect_uri');
  const redirectUri = matchRedirectUri(client.redirect_uris, requested);
  if (!redirectUri) {
    throw new PageError(
      400,
      requested === undefined
        ? 'The request has no redirect_uri and the client registered more than one.'
        : 'The redirect_uri is not registered for this client (it must match a registered URI exactly).',
    );
  }
  const state = params.get('state') ?? null;
  const request: ConsentRequest = {
    client_id: client.client_id,
    redirect_uri: redirectUri,
    redirect_uri_in_request: requested !== undefined,
    state,
    code_challenge: '',
    scope: '',
    resource: deps.config.mcpResource,
  };
  // From here on, the client is known and the redirect URI is its own: errors go back to it.
  const fail = (code: OAuthErrorCode, message: string): never => {
    throw new RedirectError(code, message, request);
  };
  if (state !== null && state.length > STATE_MAX_LENGTH) {
    request.state = null;
    fail('invalid_request', `state must be at most ${STATE_MAX_LENGTH} characters.`);
  }
  if (duplicated.length) fail('invalid_request', `Parameter ${duplicated[0]} appears more than once.`);
  const responseType = params.get('response_type');
  if (!responseType) fail('invalid_request', 'response_type is required (use "code").');
  if (responseType !== 'code') fail('unsupported_response_type', 'Only response_type=code is supported.');
  if (params.has('request') || params.has('request_uri')) fail('invalid_request', 'Request objects are not supported.');
  const method = params.get('code_challenge_method');
  const challenge = params.get('code_challenge');
  if (!challenge) fail('invalid_request', 'code_challenge is required: this server requires PKCE with S256.');
  if (method !== 'S256')
    fail(
      'invalid_request',
      method === undefined
        ? 'code_challenge_method is required and must be S256 (absent means plain, which is not allowed).'
        : `code_challenge_method "${method}" is not supported; use S256.`,
    );
  if (!S256_CHALLENGE_PATTERN.test(challenge!))
    fail('invalid_request', 'code_challenge must be the 43-character base64url SHA-256 of the code_verifier.');
  request.code_challenge = challenge!;
  const granted = intersectScope(client.scope, params.get('scope'));
  if (!granted)
    fail('invalid_scope', `None of the requested scopes is registered for this client; it may request: ${client.scope.join(' ')}.`);
  request.scope = granted!.join(' ');
  const resource = params.get('resource');
  if (resource !== undefined && resource !== deps.config.mcpResource)
    fail('invalid_target', `resource must be ${deps.config.mcpResource}.`);
  return { client, request };
}

function consentBody(client: ClientRecord, request: ConsentRequest, ticket: string, deps: PageDeps): string {
  const { text } = deps;
  const redirect = new URL(request.redirect_uri);
  const scopes = request.scope
    .split(' ')
    .map((s) => `<li><code>${escapeHtml(s)}</code>: ${escapeHtml(text.scope(s as Scope))}</li>`)
    .join('\n');
  // clientNameHtml escapes the name and marks it up; the sentences around it are escaped here, with the name slotted in after.
  const name = clientNameHtml(client.client_name, escapeHtml);
  const NAME = '\u0000name\u0000';
  const withName = (sentence: string): string => escapeHtml(sentence).replaceAll(NAME, name);
  return `<h1>${withName(text.consentHeading(NAME, deps.siteName))}</h1>
<p class="warn">${withName(text.unverifiedName(NAME, deps.siteName))}</p>
<dl>
<dt>${escapeHtml(text.application)}</dt><dd>${name} (${escapeHtml(text.unverified)})</dd>
<dt>${escapeHtml(text.clientId)}</dt><dd><code>${escapeHtml(client.client_id)}</code></dd>
<dt>${escapeHtml(text.returnsTo)}</dt><dd><strong>${escapeHtml(redirect.host)}</strong> (${escapeHtml(request.redirect_uri)})</dd>
<dt>${escapeHtml(text.resource)}</dt><dd>${escapeHtml(request.resource)}</dd>
</dl>
<h2>${escapeHtml(text.asksFor)}</h2>
<ul>
${scopes}
</ul>
<p>${escapeHtml(text.consentNote)}</p>
<form class="actions" method="post" action="${escapeHtml(deps.config.endpoints.authorize)}">
<input type="hidden" name="ticket" value="${escapeHtml(ticket)}">
<button type="submit" name="decision" value="approve">${escapeHtml(text.approve)}</button>
<button type="submit" name="decision" value="deny">${escapeHtml(text.deny)}</button>
</form>`;
}

async function showConsent(req: Request, deps: PageDeps): Promise<Response> {
  const url = new URL(req.url);
  if (url.search.length > REQUEST_MAX_BYTES) return errorPage(414, 'The authorization request is too long.', deps);
  let validated: { client: ClientRecord; request: ConsentRequest };
  try {
    validated = await validateRequest(url.searchParams, deps);
  } catch (error) {
    if (error instanceof PageError) return errorPage(error.status, error.message, deps, error.headers);
    if (error instanceof RedirectError) {
      const { request } = error;
      return seeOther(
        authorizationResponseUrl(request.redirect_uri, deps.config.issuer, {
          error: error.code,
          error_description: error.message,
          state: request.state,
        }),
      );
    }
    throw error;
  }
  const { client, request } = validated;
  const { ticket, setCookie } = await issueTicket(await deps.keys(), {
    issuer: deps.config.issuer,
    audience: deps.config.endpoints.authorize,
    kind: 'consent',
    payload: { ...request },
    nowSeconds: deps.nowSeconds(),
  });
  const html = htmlPage(
    `${deps.text.consentTitle(plainClientName(client.client_name))} – ${deps.siteName}`,
    consentBody(client, request, ticket, deps),
    deps.text.htmlLang,
  );
  return htmlResponse(html, {
    headers: [['set-cookie', setCookie]],
    formTargets: [new URL(request.redirect_uri).origin],
  });
}

async function answerConsent(req: Request, deps: PageDeps): Promise<Response> {
  if (mediaTypeOf(req) !== 'application/x-www-form-urlencoded')
    return errorPage(415, 'Send the consent form as application/x-www-form-urlencoded.', deps);
  const read = await readBody(req, REQUEST_MAX_BYTES);
  if (!read.ok && read.problem === 'encoded') return errorPage(415, contentCodingMessage(read.coding), deps);
  if (!read.ok)
    return errorPage(
      read.problem === 'too-large' ? 413 : 400,
      read.problem === 'too-large' ? 'The form is too large.' : 'The form is not valid UTF-8.',
      deps,
    );
  const { params, duplicated } = singleParams(new URLSearchParams(read.text));
  if (duplicated.length) return errorPage(400, `Field ${duplicated[0]} appears more than once.`, deps);
  const decision = params.get('decision');
  if (decision !== 'approve' && decision !== 'deny') return errorPage(400, deps.text.chooseDecision, deps);
  const now = deps.nowSeconds();
  if (deps.limits && deps.clientNetworkDigest) {
    const limited = await consume(deps.limits, `consent/${await deps.clientNetworkDigest()}`, CONSENT_ANSWER_RATE_LIMIT, now * 1000);
    if (!limited.allowed)
      return errorPage(
        429,
        limited.contended
          ? busyText('Consent answering is')
          : `Too many consent answers from your network; try again in ${limited.retryAfterSeconds} s.`,
        deps,
        {
          'retry-after': String(limited.retryAfterSeconds),
        },
      );
  }
  let request: ConsentRequest;
  let clearCookie: string;
  try {
    assertSameOrigin(req, deps.config.issuer);
    const verified = await verifyTicket<ConsentRequest>(await deps.keys(), {
      issuer: deps.config.issuer,
      audience: deps.config.endpoints.authorize,
      kind: 'consent',
      ticket: params.get('ticket') ?? '',
      cookieHeader: req.headers.get('cookie'),
      nowSeconds: now,
    });
    ({ payload: request, clearCookie } = verified);
    // Approve or Deny, once: a replayed post (or Deny, then Approve) is refused before any effect.
    await consumeTicket(deps.grants, verified);
  } catch (error) {
    if (error instanceof InteractionError) return errorPage(403, error.message, deps);
    throw error;
  }
  // The registration may have expired or changed while the page was open.
  let client: ClientRecord;
  try {
    client = await usableClient(deps, request.client_id);
  } catch (error) {
    if (error instanceof PageError) return errorPage(error.status, error.message, deps, error.headers);
    throw error;
  }
  if (!matchRedirectUri(client.redirect_uris, request.redirect_uri))
    return errorPage(400, 'The redirect_uri is no longer registered for this client.', deps);
  const answer = (params: Record<string, string | null>): Response =>
    seeOther(authorizationResponseUrl(request.redirect_uri, deps.config.issuer, { ...params, state: request.state }), [
      ['set-cookie', clearCookie],
    ]);
  if (decision === 'deny') return answer({ error: 'access_denied', error_description: 'The request was denied on the consent page.' });
  const code = await issueCode(
    deps.grants,
    {
      client_id: client.client_id,
      redirect_uri: request.redirect_uri,
      redirect_uri_in_request: request.redirect_uri_in_request,
      code_challenge: request.code_challenge,
      scope: request.scope,
      resource: request.resource,
      subject: `anon_${randomSecret(12)}`,
    },
    now,
  );
  return answer({ code });
}

/** The edge of `/oauth/authorize`: a page (its errors are pages too), no CORS. */
export const AUTHORIZE_EDGE: EdgeOptions = { methods: ['GET', 'POST'], errors: PAGE_ERRORS };

export async function handleAuthorize(req: Request, authorizeDeps: AuthorizeDeps): Promise<Response> {
  const deps: PageDeps = { ...authorizeDeps, text: pageTextFor(req) };
  if (req.method === 'GET') return showConsent(req, deps);
  if (req.method === 'POST') return answerConsent(req, deps);
  const res = await errorPage(405, 'Use GET to start an authorization request.', deps);
  res.headers.set('allow', 'GET, HEAD, POST, OPTIONS');
  return res;
}
