import { component, verifySignature, webcrypto } from 'http-message-sig';
import { describe, expect, it } from 'vitest';
import { verify } from 'web-bot-auth';
import { verifierFromJWK } from 'web-bot-auth/crypto';
import { onlySignature } from '../../../tests/support/web-bot-auth.ts';
import { contentDigest, contentDigestMatches } from './content-digest.ts';
import { generateSigningKey, publicJwk, SIGNATURE_LIFETIME_SECONDS, type SigningJwk, signingKeySet } from './keys.ts';
import { siteUserAgent } from '../kernel/user-agent.ts';
import { type RequestSigning, signingFetch, signRequest } from './sign.ts';

const ORIGIN = 'https://site.example';

async function setup(nowMs = Date.now()): Promise<{ key: SigningJwk; signing: RequestSigning }> {
  const key = await generateSigningKey(Math.floor(nowMs / 1000) - 10);
  const keys = await signingKeySet([key], Math.floor(nowMs / 1000));
  return { key, signing: { signer: keys.active, agentOrigin: ORIGIN, userAgent: siteUserAgent(ORIGIN), now: () => nowMs } };
}

/** Cloudflare's web-bot-auth 0.1.3 at its defaults, as a receiver written to the earlier drafts calls it: the legacy signature alone. */
async function verified(request: Request, key: SigningJwk): Promise<boolean> {
  try {
    await verify(onlySignature(request, 'sig2'), await verifierFromJWK(publicJwk(key)));
    return true;
  } catch {
    return false;
  }
}

/** http-message-sig 0.3 as the current draft's verifier: the label Signature-Agent names, its member covered. */
async function verifiedStrictly(request: Request, key: SigningJwk): Promise<boolean> {
  const cryptoKey = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: key.x }, { name: 'Ed25519' }, false, ['verify']);
  try {
    await verifySignature(request, {
      label: 'sig1',
      policy: {
        algorithms: ['ed25519'],
        requiredComponents: ['@authority', component('signature-agent', { key: 'sig1' })],
        requiredParameters: ['created', 'expires', 'keyid', 'tag'],
      },
      resolveVerifier: () => webcrypto.verifier(cryptoKey),
    });
    return true;
  } catch {
    return false;
  }
}

/** Both verifiers agree. */
async function verifiedByBoth(request: Request, key: SigningJwk): Promise<boolean> {
  const [strict, legacy] = [await verifiedStrictly(request, key), await verified(request, key)];
  expect(strict).toBe(legacy);
  return strict;
}

const webhook = (): Request =>
  new Request('https://hooks.example/acme/hook', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"type":"contact.enquiry","enquiry":{"id":"e1"}}',
  });

/** A copy of a signed request with some parts changed. */
function altered(
  signed: Request,
  body: string,
  change: { url?: string; method?: string; headers?: Record<string, string>; body?: string },
): Request {
  const headers = new Headers(signed.headers);
  for (const [name, value] of Object.entries(change.headers ?? {})) headers.set(name, value);
  const method = change.method ?? signed.method;
  return new Request(change.url ?? signed.url, { method, headers, body: method === 'GET' ? null : (change.body ?? body) });
}

/** A fetch that keeps each request it is given and answers 200. */
function recordingFetch(): { sent: Request[]; fetchImpl: typeof fetch } {
  const sent: Request[] = [];
  const fetchImpl = (async (input: RequestInfo | URL) => {
    sent.push(input as Request);
    return new Response('ok');
  }) as typeof fetch;
  return { sent, fetchImpl };
}

describe('signing outbound requests (Web Bot Auth)', () => {
  it("adds Signature-Agent (dictionary form) and two signatures with the profile's parameters: sig1 over its member, sig2 over the field", async () => {
    const nowMs = Date.parse('2026-11-25T10:00:00Z');
    const { key, signing } = await setup(nowMs);
    const signed = await signRequest(webhook(), signing);
    expect(signed.headers.get('signature-agent')).toBe('sig1="https://site.example"');
    const input = signed.headers.get('signature-input')!;
    expect(input).toMatch(/^sig1=\("@method" "@authority" "@path" "content-type" "content-digest" "signature-agent";key="sig1"\);/);
    expect(input).toMatch(/, sig2=\("@method" "@authority" "@path" "content-type" "content-digest" "signature-agent"\);/);
    for (const label of ['sig1', 'sig2']) {
      const member = new RegExp(`${label}=\\([^)]*\\)([^,]*)`).exec(input)![1]!;
      expect(member).toContain(`;created=${nowMs / 1000}`);
      expect(member).toContain(`;expires=${nowMs / 1000 + SIGNATURE_LIFETIME_SECONDS}`);
      expect(member).toContain(`;keyid="${key.kid}"`);
      expect(member).toContain(';tag="web-bot-auth"');
      expect(member).toContain(';alg="ed25519"');
      expect(member).toMatch(/;nonce="[A-Za-z0-9+/]{86}==";/);
    }
    expect(signed.headers.get('signature')).toMatch(/^sig1=:[A-Za-z0-9+/]+=*:, sig2=:[A-Za-z0-9+/]+=*:$/);
    const body = await signed.clone().text();
    expect(body).toBe('{"type":"contact.enquiry","enquiry":{"id":"e1"}}');
    expect(signed.headers.get('content-digest')).toBe(await contentDigest(body));
  });

  it('sig1 verifies with the strict verifier of the current draft, sig2 with web-bot-auth 0.1.3; each base is the one RFC 9421 defines', async () => {
    const { key, signing } = await setup();
    const signed = await signRequest(webhook(), signing);
    expect(await verifiedStrictly(signed, key)).toBe(true);
    expect(await verified(signed, key)).toBe(true);
    // What each verifier makes of the other signature: web-bot-auth 0.1.3 refuses two signatures and the member form.
    await expect(verify(signed, await verifierFromJWK(publicJwk(key)))).rejects.toThrow('Multiple signatures is not supported');
    expect(await verified(onlySignature(signed, 'sig1'), key)).toBe(false);
    expect(await contentDigestMatches(signed.headers.get('content-digest'), await signed.clone().text())).toBe(true);

    // An RFC 9421 verifier of our own (§2.5: each covered component, @signature-params last; §2.1.2: a member is its value).
    const publicKey = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: key.x }, { name: 'Ed25519' }, false, [
      'verify',
    ]);
    for (const [label, agentLine] of [
      ['sig1', '"signature-agent";key="sig1": "https://site.example"'],
      ['sig2', '"signature-agent": sig1="https://site.example"'],
    ] as const) {
      const params = new RegExp(`${label}=(\\([^)]*\\)[^,]*)`).exec(signed.headers.get('signature-input')!)![1]!;
      const base = [
        '"@method": POST',
        '"@authority": hooks.example',
        '"@path": /acme/hook',
        '"content-type": application/json',
        `"content-digest": ${signed.headers.get('content-digest')}`,
        agentLine,
        `"@signature-params": ${params}`,
      ].join('\n');
      const value = new RegExp(`${label}=:([^:]+):`).exec(signed.headers.get('signature')!)![1]!;
      const signature = Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
      expect(await crypto.subtle.verify('Ed25519', publicKey, signature, new TextEncoder().encode(base))).toBe(true);
    }
  });

  it('fails verification when the request is tampered with, the key is another, or the signature expired', async () => {
    const { key, signing } = await setup();
    const body = await webhook().text();
    const signed = await signRequest(webhook(), signing);
    expect(await verifiedByBoth(altered(signed, body, {}), key)).toBe(true);
    expect(await verifiedByBoth(altered(signed, body, { url: 'https://evil.example/acme/hook' }), key)).toBe(false);
    expect(await verifiedByBoth(altered(signed, body, { url: 'https://hooks.example/other' }), key)).toBe(false);
    expect(await verifiedByBoth(altered(signed, body, { method: 'PUT' }), key)).toBe(false);
    expect(await verifiedByBoth(altered(signed, body, { headers: { 'signature-agent': 'sig1="https://evil.example"' } }), key)).toBe(false);
    expect(
      await verifiedByBoth(altered(signed, body, { headers: { 'content-digest': await contentDigest('{"forged":true}') } }), key),
    ).toBe(false);
    // A new body under the old digest: the signature holds, the digest check is what catches it.
    const swapped = altered(signed, body, { body: '{"forged":true}' });
    expect(await contentDigestMatches(swapped.headers.get('content-digest'), await swapped.text())).toBe(false);
    expect(await verifiedByBoth(signed, await generateSigningKey(0))).toBe(false);

    const old = await setup(Date.now() - (SIGNATURE_LIFETIME_SECONDS + 5) * 1000);
    expect(await verifiedByBoth(await signRequest(webhook(), old.signing), old.key)).toBe(false);
  });

  it('covers @query only when there is a query, and a GET carries no Content-Digest', async () => {
    const { key, signing } = await setup();
    const search = await signRequest(new Request('https://api.example/2/tweets/search/recent?query=LLM&max_results=50'), signing);
    expect(search.headers.get('signature-input')).toMatch(/^sig1=\("@method" "@authority" "@path" "@query" "signature-agent";key="sig1"\)/);
    expect(search.headers.has('content-digest')).toBe(false);
    expect(await verifiedByBoth(search, key)).toBe(true);
    expect(
      await verifiedByBoth(altered(search, '', { url: 'https://api.example/2/tweets/search/recent?query=other&max_results=50' }), key),
    ).toBe(false);
    const feed = await signRequest(new Request('https://feeds.example/ai.json'), signing);
    expect(feed.headers.get('signature-input')).toMatch(/^sig1=\("@method" "@authority" "@path" "signature-agent";key="sig1"\)/);
    expect(await verifiedByBoth(feed, key)).toBe(true);
  });

  it("sends the site's User-Agent on every signed request, over any the caller set, and the signatures still verify", async () => {
    const { key, signing } = await setup();
    const { sent, fetchImpl } = recordingFetch();
    const signedFetch = signingFetch(fetchImpl, async () => signing);
    await signedFetch('https://hooks.example/acme/hook', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    await signedFetch('https://feeds.example/ai.json', { headers: { 'user-agent': 'node' } });
    expect(sent.map((req) => req.headers.get('user-agent'))).toEqual([
      'agent-ready-site/1 (+https://site.example)',
      'agent-ready-site/1 (+https://site.example)',
    ]);
    for (const req of sent) expect(await verifiedByBoth(req, key)).toBe(true);
  });

  it('signingFetch signs each request it sends and keeps its abort signal', async () => {
    const { key, signing } = await setup();
    const { sent, fetchImpl } = recordingFetch();
    const controller = new AbortController();
    const res = await signingFetch(fetchImpl, async () => signing)('https://hooks.example/acme/hook', {
      method: 'POST',
      body: 'x',
      signal: controller.signal,
    });
    expect(await res.text()).toBe('ok');
    expect(await verifiedByBoth(sent[0]!, key)).toBe(true);
    controller.abort();
    expect(sent[0]!.signal.aborted).toBe(true);
    await expect(
      signingFetch(fetchImpl, async () => {
        throw new Error('no key');
      })('https://hooks.example/'),
    ).rejects.toThrow('no key');
  });
});
