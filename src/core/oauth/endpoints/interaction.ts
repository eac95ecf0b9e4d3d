/**
 * Interaction tickets: what a consent or claim-approval form carries between the GET that shows
 * it and the POST that answers it, without server-side session state.
 *
 * The GET validates the request and signs its parameters into a short-lived JWT (our signing key,
 * its own `typ`, so it can never pass as an access token). The same response sets a per-ticket
 * cookie (HttpOnly, SameSite=Strict, Path=/oauth); the JWT holds only the cookie value's SHA-256.
 * A POST is accepted only with both, so a cross-site page cannot answer the form (CSRF, RFC 9700
 * §4.7) and a leaked ticket is useless without the browser that opened it. Each ticket is answered
 * once: the first answer writes a create-only marker (`answered/<ticket id>`), so a replayed post,
 * or Deny then Approve with one ticket, finds it and gets the "already answered" page.
 * @module
 */
import { jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { isCrossSiteRequest } from '../../kernel/same-origin.ts';
import type { Store } from '../../kernel/store.ts';
import { setExpiring } from '../../kernel/expiry.ts';
import { INTERACTION_TTL_SECONDS } from '../config.ts';
import { SIGNING_ALG, type KeySet } from '../grants/keys.ts';
import { randomSecret, sha256Hex, timingSafeEqual } from '../../kernel/crypto.ts';

const TICKET_TYPE = 'oauth-interaction+jwt';
const COOKIE_PATH = '/oauth';

export type InteractionKind = 'consent' | 'claim';

/** Why a POST was refused (the page says it in words). */
export class InteractionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InteractionError';
  }
}

function cookieName(issuer: string, kind: InteractionKind, ticketId: string): string {
  // `__Host-` pins the cookie to this host and path `/` with Secure; it needs https, so plain
  // http (local runs) uses the bare name.
  return `${issuer.startsWith('https:') ? '__Host-' : ''}oauth_${kind}_${ticketId}`;
}

function cookieAttributes(issuer: string, maxAgeSeconds: number): string {
  const secure = issuer.startsWith('https:');
  // `__Host-` cookies must have Path=/; the plain-http variant is narrowed to /oauth.
  return `Path=${secure ? '/' : COOKIE_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** Signs `payload` into a ticket for `audience` (the endpoint that will receive the POST) and makes its cookie. */
export async function issueTicket<T extends Record<string, unknown>>(
  keys: KeySet,
  input: { issuer: string; audience: string; kind: InteractionKind; payload: T; nowSeconds: number },
): Promise<{ ticket: string; setCookie: string }> {
  const ticketId = randomSecret(12);
  const cookieValue = randomSecret(32);
  const ticket = await new SignJWT({ kind: input.kind, payload: input.payload, csrf: await sha256Hex(cookieValue) })
    .setProtectedHeader({ alg: SIGNING_ALG, kid: keys.active.kid, typ: TICKET_TYPE })
    .setIssuer(input.issuer)
    .setAudience(input.audience)
    .setJti(ticketId)
    .setIssuedAt(input.nowSeconds)
    .setExpirationTime(input.nowSeconds + INTERACTION_TTL_SECONDS)
    .sign(keys.active.key);
  return {
    ticket,
    setCookie: `${cookieName(input.issuer, input.kind, ticketId)}=${cookieValue}; ${cookieAttributes(input.issuer, INTERACTION_TTL_SECONDS)}`,
  };
}

function readCookie(header: string | null, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/**
 * Checks a posted ticket against the request's cookie; returns the signed payload and the
 * `Set-Cookie` that clears the cookie. Throws {@link InteractionError} with a reason.
 */
export async function verifyTicket<T>(
  keys: KeySet,
  input: { issuer: string; audience: string; kind: InteractionKind; ticket: string; cookieHeader: string | null; nowSeconds: number },
): Promise<{ payload: T; clearCookie: string; ticketId: string; expiresAt: number }> {
  let claims: JWTPayload;
  try {
    ({ payload: claims } = await jwtVerify(
      input.ticket,
      (header) => {
        const key = header.kid ? keys.verifiers.get(header.kid) : undefined;
        if (!key) throw new Error('unknown key');
        return key;
      },
      {
        algorithms: [SIGNING_ALG],
        typ: TICKET_TYPE,
        issuer: input.issuer,
        audience: input.audience,
        currentDate: new Date(input.nowSeconds * 1000),
        requiredClaims: ['jti', 'exp'],
      },
    ));
  } catch {
    throw new InteractionError('This form has expired or is not valid. Start again from the application.');
  }
  if (claims.kind !== input.kind) throw new InteractionError('This form belongs to a different step.');
  const name = cookieName(input.issuer, input.kind, String(claims.jti));
  const cookieValue = readCookie(input.cookieHeader, name);
  if (!cookieValue || !timingSafeEqual(await sha256Hex(cookieValue), String(claims.csrf))) {
    throw new InteractionError('This form was not opened in this browser, or it was already answered. Start again from the application.');
  }
  return {
    payload: claims.payload as T,
    clearCookie: `${name}=; ${cookieAttributes(input.issuer, 0)}`,
    ticketId: String(claims.jti),
    expiresAt: Number(claims.exp),
  };
}

/** The record that a ticket was answered; kept until the ticket expires (then the sweep removes it). */
export interface TicketAnswerRecord {
  expires_at: number;
}
export const ticketAnswerKey = (ticketId: string): string => `answered/${ticketId}`;

/**
 * Claims the one answer a ticket allows. Throws {@link InteractionError} when the ticket was
 * already answered (of concurrent answers exactly one wins).
 */
export async function consumeTicket(store: Store, ticket: { ticketId: string; expiresAt: number }): Promise<void> {
  const written = await setExpiring(
    store,
    ticketAnswerKey(ticket.ticketId),
    { expires_at: ticket.expiresAt } satisfies TicketAnswerRecord,
    ticket.expiresAt,
    { onlyIfNew: true },
  );
  if (!written.modified) throw new InteractionError('This request was already answered. Start again from the application if you need to.');
}

/**
 * Refuses form posts that a browser marks as coming from another site (Origin or
 * Sec-Fetch-Site), before any ticket work: defence in depth next to the cookie binding.
 */
export function assertSameOrigin(req: Request, issuer: string): void {
  if (isCrossSiteRequest(req, issuer)) throw new InteractionError('This form can only be sent from this site.');
}
