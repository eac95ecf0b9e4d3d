import { describe, expect, it } from 'vitest';
import { verify } from 'web-bot-auth';
import { verifierFromJWK } from 'web-bot-auth/crypto';
import { contentDigest, contentDigestMatches } from './content-digest.ts';
import { generateSigningKey, publicJwk, SIGNATURE_LIFETIME_SECONDS, type SigningJwk, signingKeySet } from './keys.ts';
import { type RequestSigning, signingFetch, signRequest } from './sign.ts';

const ORIGIN = 'https://site.example';

async function setup(nowMs = Date.now()): Promise<{ key: SigningJwk; signing: RequestSigning }> {
  const key = await generateSigningKey(Math.floor(nowMs / 1000) - 10);
  const keys = await signingKeySet([key], Math.floor(nowMs / 1000));
  return { key, signing: { signer: keys.active, agentOrigin: ORIGIN, now: () => nowMs } };
}

/** Cloudflare's verifier at its defaults, as a webhook receiver would call it. */
async function verified(request: Request, key: SigningJwk): Promise<boolean> {
  try {
    await verify(request, await verifierFromJWK(publicJwk(key)));
    return true;
  } catch {
    return false;
  }
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

describe('signing outbound requests (Web Bot Auth)', () => {
  it("adds Signature-Agent (dictionary form), Signature-Input and Signature with the profile's parameters", async () => {
    const nowMs = Date.parse('2026-11-25T10:00:00Z');
    const { key, signing } = await setup(nowMs);
    const signed = await signRequest(webhook(), signing);
    expect(signed.headers.get('signature-agent')).toBe('sig1="https://site.example"');
    const input = signed.headers.get('signature-input')!;
    expect(input).toMatch(/^sig1=\("@method" "@authority" "@path" "content-type" "content-digest" "signature-agent"\)/);
    expect(input).toContain(`;created=${nowMs / 1000}`);
    expect(input).toContain(`;expires=${nowMs / 1000 + SIGNATURE_LIFETIME_SECONDS}`);
    expect(input).toContain(`;keyid="${key.kid}"`);
    expect(input).toContain(';tag="web-bot-auth"');
    expect(input).toContain(';alg="ed25519"');
    expect(signed.headers.get('signature')).toMatch(/^sig1=:[A-Za-z0-9+/]+=*:$/);
    const body = await signed.clone().text();
    expect(body).toBe('{"type":"contact.enquiry","enquiry":{"id":"e1"}}');
    expect(signed.headers.get('content-digest')).toBe(await contentDigest(body));
  });

  it("verifies with web-bot-auth's verifier, and the signature base is the one RFC 9421 defines", async () => {
    const { key, signing } = await setup();
    const signed = await signRequest(webhook(), signing);
    expect(await verified(signed, key)).toBe(true);
    expect(await contentDigestMatches(signed.headers.get('content-digest'), await signed.clone().text())).toBe(true);

    // An RFC 9421 verifier of our own: every covered field whole, @signature-params last (§2.5).
    const params = signed.headers.get('signature-input')!.replace(/^sig1=/, '');
    const base = [
      '"@method": POST',
      '"@authority": hooks.example',
      '"@path": /acme/hook',
      '"content-type": application/json',
      `"content-digest": ${signed.headers.get('content-digest')}`,
      '"signature-agent": sig1="https://site.example"',
      `"@signature-params": ${params}`,
    ].join('\n');
    const signature = Uint8Array.from(atob(/^sig1=:(.+):$/.exec(signed.headers.get('signature')!)![1]!), (c) => c.charCodeAt(0));
    const publicKey = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: key.x }, { name: 'Ed25519' }, false, [
      'verify',
    ]);
    expect(await crypto.subtle.verify('Ed25519', publicKey, signature, new TextEncoder().encode(base))).toBe(true);
  });

  it('fails verification when the request is tampered with, the key is another, or the signature expired', async () => {
    const { key, signing } = await setup();
    const body = await webhook().text();
    const signed = await signRequest(webhook(), signing);
    expect(await verified(altered(signed, body, {}), key)).toBe(true);
    expect(await verified(altered(signed, body, { url: 'https://evil.example/acme/hook' }), key)).toBe(false);
    expect(await verified(altered(signed, body, { url: 'https://hooks.example/other' }), key)).toBe(false);
    expect(await verified(altered(signed, body, { method: 'PUT' }), key)).toBe(false);
    expect(await verified(altered(signed, body, { headers: { 'signature-agent': 'sig1="https://evil.example"' } }), key)).toBe(false);
    expect(await verified(altered(signed, body, { headers: { 'content-digest': await contentDigest('{"forged":true}') } }), key)).toBe(
      false,
    );
    // A new body under the old digest: the signature holds, the digest check is what catches it.
    const swapped = altered(signed, body, { body: '{"forged":true}' });
    expect(await contentDigestMatches(swapped.headers.get('content-digest'), await swapped.text())).toBe(false);
    expect(await verified(signed, await generateSigningKey(0))).toBe(false);

    const old = await setup(Date.now() - (SIGNATURE_LIFETIME_SECONDS + 5) * 1000);
    expect(await verified(await signRequest(webhook(), old.signing), old.key)).toBe(false);
  });

  it('covers @query only when there is a query, and a GET carries no Content-Digest', async () => {
    const { key, signing } = await setup();
    const search = await signRequest(new Request('https://api.example/2/tweets/search/recent?query=LLM&max_results=50'), signing);
    expect(search.headers.get('signature-input')).toMatch(/^sig1=\("@method" "@authority" "@path" "@query" "signature-agent"\)/);
    expect(search.headers.has('content-digest')).toBe(false);
    expect(await verified(search, key)).toBe(true);
    expect(await verified(altered(search, '', { url: 'https://api.example/2/tweets/search/recent?query=other&max_results=50' }), key)).toBe(
      false,
    );
    const feed = await signRequest(new Request('https://feeds.example/ai.json'), signing);
    expect(feed.headers.get('signature-input')).toMatch(/^sig1=\("@method" "@authority" "@path" "signature-agent"\)/);
  });

  it('signingFetch signs each request it sends and keeps its abort signal', async () => {
    const { key, signing } = await setup();
    const sent: Request[] = [];
    const fetchImpl = (async (input: RequestInfo | URL) => {
      sent.push(input as Request);
      return new Response('ok');
    }) as typeof fetch;
    const controller = new AbortController();
    const res = await signingFetch(fetchImpl, async () => signing)('https://hooks.example/acme/hook', {
      method: 'POST',
      body: 'x',
      signal: controller.signal,
    });
    expect(await res.text()).toBe('ok');
    expect(await verified(sent[0]!, key)).toBe(true);
    controller.abort();
    expect(sent[0]!.signal.aborted).toBe(true);
    await expect(
      signingFetch(fetchImpl, async () => {
        throw new Error('no key');
      })('https://hooks.example/'),
    ).rejects.toThrow('no key');
  });
});
