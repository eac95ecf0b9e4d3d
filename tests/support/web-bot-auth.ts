/**
 * A Web Bot Auth verifier as a receiver of our webhooks would write it (the README's recipe), with
 * Cloudflare's web-bot-auth at its default settings: resolve `Signature-Agent` to the signer's
 * key directory over HTTP, pick the key by `keyid`, verify, and check `Content-Digest`.
 */
import { verify as verifyMessage } from 'http-message-sig';
import { isInnerList, parseDictionary } from 'structured-headers';
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

/** The `Signature-Agent` member for the signature's label: an origin (`type` directory, the default). */
function signatureAgent(request: Request): { label: string; origin: string } {
  const [label] = [...parseDictionary(request.headers.get('signature-input') ?? '').keys()];
  if (!label) throw new Error('no Signature-Input');
  const member = parseDictionary(request.headers.get('signature-agent') ?? '').get(label);
  if (!member || isInnerList(member) || typeof member[0] !== 'string') throw new Error(`no Signature-Agent member ${label}`);
  const type = member[1].get('type');
  if (type !== undefined && String(type) !== 'directory') throw new Error(`unsupported Signature-Agent type ${String(type)}`);
  return { label, origin: new URL(member[0]).origin };
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

/**
 * Verifies a signed request; throws with the reason. A body must be covered by `Content-Digest`
 * and match it (web-bot-auth checks the signature, not the body).
 */
export async function verifySignedRequest(request: Request): Promise<Verified> {
  const { origin } = signatureAgent(request);
  const { keys } = await fetchDirectory(origin);
  const keyid = /;keyid="([^"]+)"/.exec(request.headers.get('signature-input') ?? '')?.[1];
  const key = keys.find((k) => k.kid === keyid);
  if (!key || !keyid) throw new Error(`keyid ${keyid} is not in ${origin}'s directory`);
  await verify(request, await verifierFromJWK(key));
  if (request.body) {
    if (!/"content-digest"/.test(request.headers.get('signature-input') ?? ''))
      throw new Error('the signature does not cover Content-Digest');
    if (!(await contentDigestMatches(request.headers.get('content-digest'), await request.clone().text())))
      throw new Error('the body does not match Content-Digest');
  }
  return { agent: origin, keyid };
}

/**
 * The directory's own proof (httpsig-protocol appendix): each `bindingN` signature checked with
 * http-message-sig (its `verify` reads one signature per message, so members are checked one by
 * one) against the key it names, over `"@authority";req` of `requestUrl` and `content-digest` of
 * the body. Returns the keyids whose proof holds.
 */
export async function provenDirectoryKeys(requestUrl: string, res: Response, body: string): Promise<string[]> {
  const { keys } = JSON.parse(body) as { keys: PublicJwk[] };
  if (!(await contentDigestMatches(res.headers.get('content-digest'), body))) return [];
  const inputs = parseDictionary(res.headers.get('signature-input') ?? '');
  const signatures = parseDictionary(res.headers.get('signature') ?? '');
  // Members are separated by ", " and inner lists by single spaces, so the raw members split exactly.
  const rawInputs = (res.headers.get('signature-input') ?? '').split(', ');
  const rawSignatures = (res.headers.get('signature') ?? '').split(', ');
  const proven: string[] = [];
  for (const [i, label] of [...inputs.keys()].entries()) {
    if (!signatures.has(label)) continue;
    const input = rawInputs[i]!;
    const message = {
      request: { method: 'GET', url: requestUrl, headers: {} },
      response: {
        status: res.status,
        headers: { 'content-digest': res.headers.get('content-digest')!, 'signature-input': input, signature: rawSignatures[i]! },
      },
    };
    try {
      await verifyMessage(message, async (data, signature, params) => {
        if (params.tag !== 'http-message-signatures-directory') throw new Error('wrong tag');
        if (!(params.created instanceof Date) || params.created.getTime() > Date.now()) throw new Error('created in the future');
        if (!input.startsWith(`${label}=("@authority";req "content-digest")`))
          throw new Error('must cover "@authority";req and content-digest');
        const key = keys.find((k) => k.kid === params.keyid);
        if (!key) throw new Error('unknown keyid');
        await (await verifierFromJWK(key))(data, signature, params as never);
      });
      proven.push(String(/keyid="([^"]+)"/.exec(input)![1]));
    } catch {
      // Not proven: the caller compares the list.
    }
  }
  return proven;
}
