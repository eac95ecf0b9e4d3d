/**
 * Incoming Web Bot Auth signatures, made by a third-party signer (http-message-sig's createSignature
 * with a WebCrypto Ed25519 key, as an agent would), verified against a directory served by a fake
 * fetcher (the agent's host is a third party we cannot reach).
 */
import { appendSignature, component, createSignature, type SignatureComponent, webcrypto } from 'http-message-sig';
import { beforeAll, describe, expect, it } from 'vitest';
import { signatureHeaders } from 'web-bot-auth';
import { signerFromJWK } from 'web-bot-auth/crypto';
import { AgentVerifier, agentOf, DIRECTORY_PATH, type FetchedDirectory } from './verify.ts';
import { thumbprint } from './keys.ts';

const AGENT = 'https://agent.example';
const NOW_MS = Date.UTC(2026, 10, 26, 12);
const NOW = NOW_MS / 1000;

let pair: CryptoKeyPair;
let keyid: string;
let jwks: string;
beforeAll(async () => {
  pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const { x } = (await crypto.subtle.exportKey('jwk', pair.publicKey)) as { x: string };
  keyid = await thumbprint({ kty: 'OKP', crv: 'Ed25519', x });
  jwks = JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x }] });
});

interface SignOptions {
  agentField?: string;
  label?: string;
  components?: SignatureComponent[];
  created?: number;
  expires?: number;
  nonce?: string;
  tag?: string;
  url?: string;
  key?: CryptoKey;
  keyid?: string;
}

let nonces = 0;
async function signed(options: SignOptions = {}): Promise<Request> {
  const label = options.label ?? 'sig1';
  const url = options.url ?? 'https://site.example/api/search?q=llm';
  const headers = new Headers({ 'signature-agent': options.agentField ?? `${label}="${AGENT}"` });
  const created = options.created ?? NOW;
  const fields = await createSignature(
    { kind: 'request', method: 'GET', targetUri: url, fields: [...headers].map(([name, value]) => ({ name, value })) },
    {
      label,
      components: options.components ?? ['@method', '@authority', '@path', component('signature-agent', { key: label })],
      parameters: {
        created,
        expires: options.expires ?? created + 300,
        keyid: options.keyid ?? keyid,
        alg: 'ed25519',
        nonce: options.nonce ?? `nonce-${++nonces}`,
        tag: options.tag ?? 'web-bot-auth',
      },
      signer: webcrypto.signer(options.key ?? pair.privateKey),
    },
  );
  return new Request(url, { headers: appendSignature(headers, fields) });
}

/** Another agent key: its pair, its thumbprint and a directory that lists only it. */
async function newKey(): Promise<{ pair: CryptoKeyPair; keyid: string; jwks: string }> {
  const other = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const { x } = (await crypto.subtle.exportKey('jwk', other.publicKey)) as { x: string };
  return {
    pair: other,
    keyid: await thumbprint({ kty: 'OKP', crv: 'Ed25519', x }),
    jwks: JSON.stringify({ keys: [{ kty: 'OKP', crv: 'Ed25519', x }] }),
  };
}

/** The address a fake directory host resolves to: `<name>.host<n>.example` is on 192.0.2.<n>, anything else on 192.0.2.1. */
function addressOf(url: string): string {
  return `192.0.2.${/\.host(\d+)\.example$/.exec(new URL(url).hostname)?.[1] ?? '1'}`;
}

function verifier(overrides: { fetch?: (url: string) => Promise<FetchedDirectory>; now?: () => number; allowLoopback?: boolean } = {}) {
  const fetched: string[] = [];
  const logged: string[] = [];
  const v = new AgentVerifier({
    // As the adapter's fetcher: the host's budget is asked with the resolved address before connecting.
    fetchDirectory: async (url, admit) => {
      await admit(addressOf(url), 443);
      fetched.push(url);
      return overrides.fetch ? overrides.fetch(url) : { status: 200, cacheControl: 'max-age=3600', body: jwks };
    },
    now: overrides.now ?? (() => NOW_MS),
    allowLoopback: overrides.allowLoopback ?? false,
    log: (message) => logged.push(message),
  });
  return { v, fetched, logged };
}

describe('AgentVerifier', () => {
  it('verifies a current-draft signature and names the agent by its directory origin, fetching the directory once', async () => {
    const { v, fetched } = verifier();
    expect(await v.verify(await signed())).toBe(AGENT);
    expect(await v.verify(await signed())).toBe(AGENT);
    expect(fetched).toEqual([`${AGENT}${DIRECTORY_PATH}`]);
  });

  it('verifies the earlier drafts: a bare-string Signature-Agent covered as a whole field', async () => {
    const { v } = verifier();
    const req = await signed({ agentField: `"${AGENT}"`, components: ['@authority', 'signature-agent'] });
    expect(await v.verify(req)).toBe(AGENT);
  });

  it("verifies Cloudflare's web-bot-auth 0.1.3 at its defaults: a Dictionary Signature-Agent, the whole field covered", async () => {
    const jwk = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as JsonWebKey;
    const signer = await signerFromJWK(jwk);
    const request = new Request('https://site.example/api/search?q=llm', { headers: { 'signature-agent': `sig1="${AGENT}"` } });
    const created = new Date(NOW_MS);
    const headers = await signatureHeaders(request, signer, { created, expires: new Date(NOW_MS + 300_000) });
    expect(headers['Signature-Input']).toMatch(/\("@authority" "signature-agent"\)/);
    const sent = new Request(request.url, {
      headers: { 'signature-agent': `sig1="${AGENT}"`, signature: headers.Signature, 'signature-input': headers['Signature-Input'] },
    });
    const { v } = verifier();
    expect(await v.verify(sent)).toBe(AGENT);
    // The whole field signed means the member cannot be swapped: another origin in it fails.
    const swapped = new Request(request.url, {
      headers: {
        'signature-agent': 'sig1="https://other.example"',
        signature: headers.Signature,
        'signature-input': headers['Signature-Input'],
      },
    });
    expect(await verifier().v.verify(swapped)).toBeNull();
  });

  it('an unsigned request is null without a fetch', async () => {
    const { v, fetched } = verifier();
    expect(await v.verify(new Request('https://site.example/api/search'))).toBeNull();
    expect(await v.verify(new Request('https://site.example/', { headers: { 'signature-agent': `sig1="${AGENT}"` } }))).toBeNull();
    expect(fetched).toEqual([]);
  });

  it.each<[string, SignOptions]>([
    ['another tag', { tag: 'http-message-signatures-directory' }],
    ['expired', { created: NOW - 1000, expires: NOW - 600 }],
    ['created in the future', { created: NOW + 600 }],
    ['valid for more than a day', { created: NOW - 10, expires: NOW + 2 * 86_400 }],
    ['not covering the Signature-Agent member', { components: ['@authority', '@path'] }],
    ['not covering @authority', { components: ['@path', component('signature-agent', { key: 'sig1' })] }],
    ['an http agent', { agentField: 'sig1="http://agent.example"' }],
    ['an agent URL with a path', { agentField: 'sig1="https://agent.example/keys.json"' }],
    ['a loopback agent on a public site', { agentField: 'sig1="https://127.0.0.1:9000"' }],
    ['a member naming no signature', { agentField: `other="${AGENT}"`, components: ['@authority', 'signature-agent'] }],
  ])('refuses a signature %s (null, logged)', async (_name, options) => {
    const { v, logged } = verifier();
    expect(await v.verify(await signed(options))).toBeNull();
    expect(logged).toHaveLength(1);
  });

  it('refuses a request signed for another host (@authority) and one whose signature was altered', async () => {
    const { v } = verifier();
    const forOther = await signed({ url: 'https://other.example/api/search?q=llm' });
    const replayed = new Request('https://site.example/api/search?q=llm', { headers: forOther.headers });
    expect(await v.verify(replayed)).toBeNull();
    const good = await signed();
    const headers = new Headers(good.headers);
    headers.set('signature-agent', 'sig1="https://evil.example"');
    expect(await v.verify(new Request(good.url, { headers }))).toBeNull();
  });

  it('refuses a key the directory does not hold', async () => {
    const other = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    const { v, logged } = verifier();
    expect(await v.verify(await signed({ key: other.privateKey }))).toBeNull();
    expect(logged[0]).toMatch(/signature|verif/i);
  });

  it('an agent that rotates its key is recognised at its first request with the new key (one re-fetch)', async () => {
    const rotated = await newKey();
    let directory = jwks;
    const { v, fetched } = verifier({ fetch: async () => ({ status: 200, cacheControl: 'max-age=3600', body: directory }) });
    expect(await v.verify(await signed())).toBe(AGENT);
    directory = rotated.jwks;
    const withNewKey = () => signed({ key: rotated.pair.privateKey, keyid: rotated.keyid });
    expect(await v.verify(await withNewKey())).toBe(AGENT);
    expect(await v.verify(await withNewKey())).toBe(AGENT);
    expect(fetched).toHaveLength(2);
  });

  it('unknown keyids re-fetch a directory at most once a minute, and never twice for one request', async () => {
    let nowMs = NOW_MS;
    const bogus = async () => {
      const other = await newKey();
      return signed({ key: other.pair.privateKey, keyid: other.keyid, created: Math.floor(nowMs / 1000) });
    };
    const { v, fetched, logged } = verifier({ now: () => nowMs });
    // The first request fetches the directory and finds no key: no second fetch for it.
    expect(await v.verify(await bogus())).toBeNull();
    expect(fetched).toHaveLength(1);
    // The next unknown keyid re-fetches once; the stream after it costs nothing for a minute.
    for (let i = 0; i < 20; i++) expect(await v.verify(await bogus())).toBeNull();
    expect(fetched).toHaveLength(2);
    nowMs += 59_000;
    expect(await v.verify(await bogus())).toBeNull();
    expect(fetched).toHaveLength(2);
    nowMs += 1_000;
    expect(await v.verify(await bogus())).toBeNull();
    expect(fetched).toHaveLength(3);
    expect(logged).toHaveLength(23);
    // The known key still verifies from the cache.
    expect(await v.verify(await signed({ created: Math.floor(nowMs / 1000) }))).toBe(AGENT);
    expect(fetched).toHaveLength(3);
  });

  it('a re-fetch that fails keeps the cached keys', async () => {
    let status = 200;
    const { v, fetched } = verifier({ fetch: async () => ({ status, cacheControl: 'max-age=3600', body: status === 200 ? jwks : '' }) });
    expect(await v.verify(await signed())).toBe(AGENT);
    status = 503;
    const other = await newKey();
    expect(await v.verify(await signed({ key: other.pair.privateKey, keyid: other.keyid }))).toBeNull();
    expect(fetched).toHaveLength(2);
    expect(await v.verify(await signed())).toBe(AGENT);
    expect(fetched).toHaveLength(2);
  });

  it('accepts a nonce once', async () => {
    const { v } = verifier();
    const req = await signed({ nonce: 'once' });
    expect(await v.verify(req.clone())).toBe(AGENT);
    expect(await v.verify(req)).toBeNull();
  });

  it('a directory that fails is not asked again for a minute; then it is', async () => {
    let nowMs = NOW_MS;
    let status = 503;
    const { v, fetched } = verifier({
      now: () => nowMs,
      fetch: async () => ({ status, cacheControl: null, body: status === 200 ? jwks : '' }),
    });
    expect(await v.verify(await signed({ created: Math.floor(nowMs / 1000) }))).toBeNull();
    expect(await v.verify(await signed({ created: Math.floor(nowMs / 1000) }))).toBeNull();
    expect(fetched).toHaveLength(1);
    status = 200;
    nowMs += 61_000;
    expect(await v.verify(await signed({ created: Math.floor(nowMs / 1000) }))).toBe(AGENT);
    expect(fetched).toHaveLength(2);
  });

  it.each([
    ['not JSON', 'nope'],
    ['no keys', '{"keys":[]}'],
    ['only RSA keys', '{"keys":[{"kty":"RSA","n":"x","e":"AQAB"}]}'],
  ])('a directory that is %s verifies nothing', async (_name, body) => {
    const { v } = verifier({ fetch: async () => ({ status: 200, cacheControl: null, body }) });
    expect(await v.verify(await signed())).toBeNull();
  });

  it("one network naming junk directories spends only its own share (5 at once, then one a minute), never another network's", async () => {
    let nowMs = NOW_MS;
    const created = () => Math.floor(nowMs / 1000);
    const { v, fetched } = verifier({
      now: () => nowMs,
      fetch: async (url) =>
        url.startsWith(AGENT) ? { status: 200, cacheControl: null, body: jwks } : { status: 404, cacheControl: null, body: '' },
    });
    const junk = (i: number) => signed({ agentField: `sig1="https://junk${i}.host${i}.example"`, created: created() });
    for (let i = 0; i < 30; i++) expect(await v.verify(await junk(i), '203.0.113.7')).toBeNull();
    expect(fetched).toHaveLength(5);
    // An agent on another network is fetched and verified as if nothing had happened.
    expect(await v.verify(await signed({ created: created() }), '198.51.100.9')).toBe(AGENT);
    expect(fetched).toHaveLength(6);
    // The junk network gets one more a minute; a directory it was refused is not remembered as failed.
    nowMs += 59_000;
    expect(await v.verify(await junk(29), '203.0.113.7')).toBeNull();
    expect(fetched).toHaveLength(6);
    nowMs += 1_000;
    expect(await v.verify(await junk(29), '203.0.113.7')).toBeNull();
    expect(fetched).toHaveLength(7);
    expect(fetched.at(-1)).toBe(`https://junk29.host29.example${DIRECTORY_PATH}`);
  });

  it('fetches from one host at most 20 directories at once, then 10 a minute, whichever networks ask', async () => {
    let nowMs = NOW_MS;
    const { v, fetched, logged } = verifier({
      now: () => nowMs,
      fetch: async (url) =>
        url.startsWith(AGENT) ? { status: 200, cacheControl: null, body: jwks } : { status: 404, cacheControl: null, body: '' },
    });
    // 30 names on one address (host 7), each asked from its own network.
    const onHost = (i: number) => signed({ agentField: `sig1="https://n${i}.host7.example"`, created: Math.floor(nowMs / 1000) });
    for (let i = 0; i < 30; i++) expect(await v.verify(await onHost(i), `203.0.113.${i}`)).toBeNull();
    expect(fetched).toHaveLength(20);
    expect(logged.at(-1)).toMatch(/too many directories asked from its host/);
    // Another host is not affected; the refused names are fetched once the host's budget refills (not kept as failed).
    expect(await v.verify(await signed(), '198.51.100.9')).toBe(AGENT);
    expect(fetched).toHaveLength(21);
    nowMs += 6_000;
    expect(await v.verify(await onHost(25), '203.0.113.99')).toBeNull();
    expect(fetched.at(-1)).toBe(`https://n25.host7.example${DIRECTORY_PATH}`);
  });

  it('many requests waiting for one directory cause one fetch', async () => {
    let release: (value: FetchedDirectory) => void = () => {};
    const { v, fetched } = verifier({ fetch: () => new Promise((resolve) => (release = resolve)) });
    const requests = await Promise.all(Array.from({ length: 5 }, () => signed()));
    const answers = Promise.all(requests.map((req) => v.verify(req)));
    await new Promise((resolve) => setTimeout(resolve, 10));
    release({ status: 200, cacheControl: null, body: jwks });
    expect(await answers).toEqual(Array(5).fill(AGENT));
    expect(fetched).toHaveLength(1);
  });

  it('takes http and loopback agents only on a loopback site', async () => {
    const { v } = verifier({ allowLoopback: true });
    expect(await v.verify(await signed({ agentField: 'sig1="http://127.0.0.1:9000"' }))).toBe('http://127.0.0.1:9000');
  });
});

describe('agentOf', () => {
  it('reads the member the signature names, and the directory URL as its origin', () => {
    expect(agentOf(`a="https://x.example", sig1="${AGENT}${DIRECTORY_PATH}"`, 'sig1=("@authority");created=1', false)).toEqual({
      label: 'sig1',
      origin: AGENT,
      covers: component('signature-agent', { key: 'sig1' }),
    });
  });
});
