/**
 * Web Bot Auth verifiers as a receiver of our webhooks would write them (the recipe in docs/web-bot-auth.md):
 * resolve `Signature-Agent` to the signer's key directory over HTTP, pick the key by `keyid`,
 * verify, and check `Content-Digest`. Two verifiers at their default settings: the strict one of
 * the current draft (http-message-sig 0.3, requiring `"signature-agent";key="<label>"`) and the
 * earlier drafts' (Cloudflare's web-bot-auth 0.1.3, given the legacy signature alone, as it reads
 * one signature per message).
 */
import { component, verifySignature, webcrypto } from 'http-message-sig';
import { isInnerList, parseDictionary, serializeDictionary } from 'structured-headers';
import { verify } from 'web-bot-auth';
import { verifierFromJWK } from 'web-bot-auth/crypto';
import { contentDigestMatches } from '../../src/core/web-bot-auth/content-digest.ts';
import type { PublicJwk } from '../../src/core/web-bot-auth/keys.ts';

export const DIRECTORY_PATH = '/.well-known/http-message-signatures-directory';

/** A request as a loopback server recorded it (tests/support/fake-upstream.ts). */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The request the receiver saw, as a fetch `Request` (the authority from its Host header). */
export function asRequest(
  recorded: RecordedRequest,
  change: { path?: string; body?: string; headers?: Record<string, string> } = {},
): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(recorded.headers)) if (typeof value === 'string') headers.set(name, value);
  for (const [name, value] of Object.entries(change.headers ?? {})) headers.set(name, value);
  const body = change.body ?? recorded.body;
  return new Request(`http://${headers.get('host')}${change.path ?? recorded.url}`, {
    method: recorded.method,
    headers,
    body: recorded.method === 'GET' || recorded.method === 'HEAD' ? null : body,
  });
}

export interface Verified {
  /** The origin `Signature-Agent` named, whose directory held the key. */
  agent: string;
  keyid: string;
}

/** The `Signature-Agent` member `label` names: an origin (`type` directory, the default). */
function signatureAgent(request: Request, label: string): string {
  const member = parseDictionary(request.headers.get('signature-agent') ?? '').get(label);
  if (!member || isInnerList(member) || typeof member[0] !== 'string') throw new Error(`no Signature-Agent member ${label}`);
  const type = member[1].get('type');
  if (type !== undefined && String(type) !== 'directory') throw new Error(`unsupported Signature-Agent type ${String(type)}`);
  return new URL(member[0]).origin;
}

/** The directory's keys, fetched as the draft says: 200 only, no redirects. */
export async function fetchDirectory(origin: string): Promise<{ response: Response; body: string; keys: PublicJwk[] }> {
  const response = await fetch(new URL(DIRECTORY_PATH, origin), {
    redirect: 'manual',
    headers: { accept: 'application/http-message-signatures-directory+json' },
  });
  if (response.status !== 200) throw new Error(`directory answered ${response.status}`);
  const body = await response.text();
  return { response, body, keys: (JSON.parse(body) as { keys: PublicJwk[] }).keys };
}

/** A public JWK as a WebCrypto verifier (http-message-sig 0.3 takes CryptoKeys). */
async function webCryptoVerifier(key: PublicJwk) {
  const cryptoKey = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: key.x }, { name: 'Ed25519' }, false, ['verify']);
  return webcrypto.verifier(cryptoKey);
}

async function checkBody(request: Request, input: string): Promise<void> {
  if (!request.body) return;
  if (!/"content-digest"/.test(input)) throw new Error('the signature does not cover Content-Digest');
  if (!(await contentDigestMatches(request.headers.get('content-digest'), await request.clone().text())))
    throw new Error('the body does not match Content-Digest');
}

/**
 * Verifies a signed request as the current draft says, with http-message-sig 0.3 (strict): the
 * signature is the one the `Signature-Agent` member's label names (`sig1`), it must cover that
 * member (`"signature-agent";key="sig1"`), `@authority` and, with a body, `content-digest`, and carry
 * `created`, `expires`, `keyid` and `tag="web-bot-auth"`. Throws with the reason. A body must match
 * `Content-Digest` (the signature covers the digest, not the body).
 */
export async function verifySignedRequest(request: Request, label = 'sig1'): Promise<Verified> {
  const origin = signatureAgent(request, label);
  const { keys } = await fetchDirectory(origin);
  const verified = await verifySignature(request, {
    label,
    policy: {
      algorithms: ['ed25519'],
      requiredComponents: ['@method', '@authority', '@path', component('signature-agent', { key: label })],
      requiredParameters: ['created', 'expires', 'keyid', 'tag'],
      validate: (signature) => signature.parameters.tag === 'web-bot-auth' && (signature.parameters.expires ?? 0) * 1000 > Date.now(),
    },
    resolveVerifier: async (candidate) => {
      const key = keys.find((k) => k.kid === candidate.parameters.keyid);
      if (!key) throw new Error(`keyid ${String(candidate.parameters.keyid)} is not in ${origin}'s directory`);
      return webCryptoVerifier(key);
    },
  });
  const input = serializeDictionary(new Map([[label, parseDictionary(request.headers.get('signature-input') ?? '').get(label)!]]));
  await checkBody(request, input);
  return { agent: origin, keyid: String(verified.parameters.keyid) };
}

/**
 * A copy of a signed request with only the `label` member of `Signature-Input` and `Signature`, for
 * a verifier that reads one signature per message (web-bot-auth 0.1.3): the signature base leaves
 * these two fields out, so the kept signature still verifies.
 */
export function onlySignature(request: Request, label: string): Request {
  const headers = new Headers(request.headers);
  for (const name of ['signature-input', 'signature']) {
    const member = parseDictionary(headers.get(name) ?? '').get(label);
    if (member === undefined) throw new Error(`no ${name} member ${label}`);
    headers.set(name, serializeDictionary(new Map([[label, member]])));
  }
  return new Request(request.clone(), { headers });
}

/**
 * Verifies the legacy signature (`sig2`, the whole `Signature-Agent` field covered) with
 * Cloudflare's web-bot-auth 0.1.3 at its defaults, as the earlier drafts' receivers do: the
 * directory of the origin the field names, the key by `keyid`, then the body against `Content-Digest`.
 */
export async function verifyLegacySignature(request: Request, label = 'sig2'): Promise<Verified> {
  const single = onlySignature(request, label);
  const origin = signatureAgent(request, 'sig1');
  const { keys } = await fetchDirectory(origin);
  const input = single.headers.get('signature-input') ?? '';
  const keyid = /;keyid="([^"]+)"/.exec(input)?.[1];
  const key = keys.find((k) => k.kid === keyid);
  if (!key || !keyid) throw new Error(`keyid ${keyid} is not in ${origin}'s directory`);
  await verify(single, await verifierFromJWK(key));
  await checkBody(request, input);
  return { agent: origin, keyid };
}

/**
 * The directory's own proof (httpsig-protocol appendix): each `bindingN` signature checked with
 * http-message-sig 0.3 against the key it names, over `"@authority";req` of `requestUrl` and
 * `content-digest` of the body. Returns the keyids whose proof holds.
 */
export async function provenDirectoryKeys(requestUrl: string, res: Response, body: string): Promise<string[]> {
  const { keys } = JSON.parse(body) as { keys: PublicJwk[] };
  if (!(await contentDigestMatches(res.headers.get('content-digest'), body))) return [];
  const fields = ['content-digest', 'signature-input', 'signature'].map((name) => ({ name, value: res.headers.get(name) ?? '' }));
  const message = {
    kind: 'response' as const,
    status: res.status,
    fields,
    request: { kind: 'request' as const, method: 'GET', targetUri: requestUrl, fields: [] },
  };
  const proven: string[] = [];
  for (const label of parseDictionary(res.headers.get('signature-input') ?? '').keys()) {
    try {
      const verified = await verifySignature(message, {
        label,
        policy: {
          algorithms: ['ed25519'],
          requiredComponents: [component('@authority', { req: true }), 'content-digest'],
          requiredParameters: ['created', 'keyid', 'tag'],
          validate: (signature) =>
            signature.parameters.tag === 'http-message-signatures-directory' && (signature.parameters.created ?? 0) * 1000 <= Date.now(),
        },
        resolveVerifier: async (candidate) => {
          const key = keys.find((k) => k.kid === candidate.parameters.keyid);
          if (!key) throw new Error('unknown keyid');
          return webCryptoVerifier(key);
        },
      });
      proven.push(String(verified.parameters.keyid));
    } catch {
      // Not proven: the caller compares the list.
    }
  }
  return proven;
}
