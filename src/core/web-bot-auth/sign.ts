/**
 * Signs the site's own outbound requests (contact webhook deliveries, tweet-feed fetches) per the
 * Web Bot Auth profile of HTTP Message Signatures (RFC 9421; draft-ietf-webbotauth-httpsig-protocol,
 * formerly draft-meunier-web-bot-auth-architecture): Ed25519, `tag="web-bot-auth"`, `created`,
 * `expires`, a random `nonce`, `keyid` = the key's JWK thumbprint, and `Signature-Agent` naming this
 * site's origin, where receivers find the keys at `/.well-known/http-message-signatures-directory`.
 *
 * Every request carries two signatures with the same key and parameters (RFC 9421 §4.3 allows
 * several; a verifier checks the one it understands):
 * - `sig1`, as the current draft says: `Signature-Agent` is the Dictionary `sig1="<origin>"` and the
 *   signature covers its member, `"signature-agent";key="sig1"` (RFC 9421 §2.1.2). A strict
 *   verifier (http-message-sig 0.3 requiring that component) verifies it with the label the
 *   `Signature-Agent` member names.
 * - `sig2`, for verifiers written to the earlier drafts, covers the whole `"signature-agent"` field
 *   instead (web-bot-auth 0.1.3 on http-message-sig 0.2 ignores the `key` parameter, so it computes
 *   another signature base for `sig1`). That verifier also refuses any message with more than one
 *   signature ("Multiple signatures is not supported"), so its users hand it the `sig2` member only
 *   (docs/web-bot-auth.md, "Verifying our webhooks", shows how).
 * Both are made with http-message-sig 0.3, whose signature base is RFC 9421's (for the whole field,
 * 0.2 computes the same base).
 * @module
 */
import { appendSignature, component, createSignature, type SignatureComponent, type Signer as MessageSigner } from 'http-message-sig';
import { generateNonce, type Signer } from 'web-bot-auth';
import { contentDigest } from './content-digest.ts';
import { SIGNATURE_LIFETIME_SECONDS } from './keys.ts';

/** The label of the current-draft signature in `Signature-Input`/`Signature`, and of our `Signature-Agent` member. */
export const SIGNATURE_LABEL = 'sig1';
/** The label of the signature over the whole `Signature-Agent` field, for verifiers of the earlier drafts. */
export const LEGACY_SIGNATURE_LABEL = 'sig2';
/** The Web Bot Auth profile's `tag`. */
export const WEB_BOT_AUTH_TAG = 'web-bot-auth';
/** The algorithm every key here uses (`alg` parameter, RFC 9421 §6.2.2). */
export const SIGNATURE_ALGORITHM = 'ed25519';

export interface RequestSigning {
  /** The key that signs now. */
  signer: Signer;
  /** This site's origin: receivers resolve `<origin>/.well-known/http-message-signatures-directory`. */
  agentOrigin: string;
  /** The site's User-Agent (kernel/user-agent.ts), sent on every signed request. */
  userAgent: string;
  now: () => number;
}

/** The `Signature-Agent` field: an RFC 9651 Dictionary with our label naming our origin. */
export function signatureAgentField(origin: string): string {
  // URL origins never hold `"` or `\`, so the String needs no escaping.
  return `${SIGNATURE_LABEL}="${new URL(origin).origin}"`;
}

/** A web-bot-auth key (it signs the base as text) as the signer http-message-sig 0.3 calls with bytes; the base is ASCII. */
export function messageSigner(signer: Signer): MessageSigner {
  const decoder = new TextDecoder();
  return { algorithm: SIGNATURE_ALGORITHM, sign: (data) => signer.sign(decoder.decode(data)) };
}

/**
 * The request with the site's `User-Agent`, `Signature-Agent`, `Signature-Input` and `Signature` set (and,
 * when it has a body, `Content-Digest`). Covered by both signatures: `@method`, `@authority`, `@path`, `@query`
 * when there is a query, `content-type` and `content-digest` when there is a body; then `sig1`
 * covers `"signature-agent";key="sig1"` and `sig2` the whole `"signature-agent"` field.
 */
export async function signRequest(request: Request, signing: RequestSigning): Promise<Request> {
  const url = new URL(request.url);
  const headers = new Headers(request.headers);
  headers.set('user-agent', signing.userAgent);
  headers.set('signature-agent', signatureAgentField(signing.agentOrigin));
  const components: SignatureComponent[] = ['@method', '@authority', '@path'];
  // Covered only when present: verifiers on http-message-sig 0.2 render an empty query as "" where RFC 9421 wants "?".
  if (url.search !== '') components.push('@query');
  const body = request.body ? await request.arrayBuffer() : null;
  if (body) {
    headers.set('content-digest', await contentDigest(body));
    if (headers.has('content-type')) components.push('content-type');
    components.push('content-digest');
  }
  const created = Math.floor(signing.now() / 1000);
  const parameters = {
    created,
    expires: created + SIGNATURE_LIFETIME_SECONDS,
    keyid: signing.signer.keyid,
    alg: SIGNATURE_ALGORITHM,
    nonce: generateNonce(),
    tag: WEB_BOT_AUTH_TAG,
  };
  const message = { kind: 'request' as const, method: request.method, targetUri: request.url, fields: fieldsOf(headers) };
  const signer = messageSigner(signing.signer);
  const current = await createSignature(message, {
    label: SIGNATURE_LABEL,
    components: [...components, component('signature-agent', { key: SIGNATURE_LABEL })],
    parameters,
    signer,
  });
  const legacy = await createSignature(message, {
    label: LEGACY_SIGNATURE_LABEL,
    components: [...components, 'signature-agent'],
    parameters,
    signer,
  });
  headers.delete('signature');
  headers.delete('signature-input');
  const signed = appendSignature(appendSignature(headers, current), legacy);
  return new Request(request.url, { method: request.method, headers: signed, body, signal: request.signal, redirect: request.redirect });
}

function fieldsOf(headers: Headers): { name: string; value: string }[] {
  return [...headers].map(([name, value]) => ({ name, value }));
}

/**
 * A `fetch` that signs every request before sending it. `signing` is asked per request, so a key
 * rotation takes effect without a new fetch, and a key that cannot be loaded fails the request.
 */
export function signingFetch(fetchImpl: typeof fetch, signing: () => Promise<RequestSigning>): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
    fetchImpl(await signRequest(new Request(input, init), await signing()));
}
