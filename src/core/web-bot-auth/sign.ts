/**
 * Signs the site's own outbound requests (contact webhook deliveries, tweet-feed fetches) per the
 * Web Bot Auth profile of HTTP Message Signatures (RFC 9421; draft-ietf-webbotauth-httpsig-protocol,
 * formerly draft-meunier-web-bot-auth-architecture): Ed25519, `tag="web-bot-auth"`, `created` and
 * `expires`, `keyid` = the key's JWK thumbprint, and `Signature-Agent` naming this site's origin,
 * where receivers find the keys at `/.well-known/http-message-signatures-directory`.
 *
 * `Signature-Agent` is sent in the Dictionary form the current draft requires (`sig1="<origin>"`,
 * label = the signature's label). The signature covers the whole field (`"signature-agent"`), not
 * the member (`"signature-agent";key="sig1"`): the published verifier, web-bot-auth 0.1.3 on
 * http-message-sig 0.2.0, ignores the `key` parameter and would compute a different signature base
 * for it, while over the whole field it and every RFC 9421 verifier agree; with one member, the
 * whole field covers exactly that member.
 * @module
 */
import { type Signer, signatureHeaders } from 'web-bot-auth';
import { contentDigest } from './content-digest.ts';
import { SIGNATURE_LIFETIME_SECONDS } from './keys.ts';

/** The label of our signature in `Signature-Input`/`Signature`, and of our `Signature-Agent` member. */
export const SIGNATURE_LABEL = 'sig1';

export interface RequestSigning {
  /** The key that signs now. */
  signer: Signer;
  /** This site's origin: receivers resolve `<origin>/.well-known/http-message-signatures-directory`. */
  agentOrigin: string;
  now: () => number;
}

/** The `Signature-Agent` field: an RFC 9651 Dictionary with our label naming our origin. */
export function signatureAgentField(origin: string): string {
  // URL origins never hold `"` or `\`, so the String needs no escaping.
  return `${SIGNATURE_LABEL}="${new URL(origin).origin}"`;
}

/**
 * The request with `Signature-Agent`, `Signature-Input` and `Signature` added (and, when it has a
 * body, `Content-Digest`). Covered: `@method`, `@authority`, `@path`, `@query` when there is a
 * query, `content-type` and `content-digest` when there is a body, and `signature-agent`.
 */
export async function signRequest(request: Request, signing: RequestSigning): Promise<Request> {
  const url = new URL(request.url);
  const headers = new Headers(request.headers);
  headers.set('signature-agent', signatureAgentField(signing.agentOrigin));
  const components = ['@method', '@authority', '@path'];
  // http-message-sig 0.2.0 renders an empty query as "" where RFC 9421 wants "?": cover it only when present.
  if (url.search !== '') components.push('@query');
  const body = request.body ? await request.arrayBuffer() : null;
  if (body) {
    headers.set('content-digest', await contentDigest(body));
    if (headers.has('content-type')) components.push('content-type');
    components.push('content-digest');
  }
  components.push('signature-agent');
  const created = new Date(signing.now());
  const expires = new Date(created.getTime() + SIGNATURE_LIFETIME_SECONDS * 1000);
  const signed = await signatureHeaders({ method: request.method, url: request.url, headers }, signing.signer, {
    created,
    expires,
    key: SIGNATURE_LABEL,
    components,
  });
  headers.set('signature-input', signed['Signature-Input']);
  headers.set('signature', signed.Signature);
  return new Request(request.url, { method: request.method, headers, body, signal: request.signal, redirect: request.redirect });
}

/**
 * A `fetch` that signs every request before sending it. `signing` is asked per request, so a key
 * rotation takes effect without a new fetch, and a key that cannot be loaded fails the request.
 */
export function signingFetch(fetchImpl: typeof fetch, signing: () => Promise<RequestSigning>): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
    fetchImpl(await signRequest(new Request(input, init), await signing()));
}
