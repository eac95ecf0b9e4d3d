/**
 * Web Bot Auth end to end: the site (the local runtime, served over real HTTP on TEST_PORT because
 * `Signature-Agent` names the build's origin) delivers a contact webhook and fetches the tweet feed
 * from fake third parties on loopback; each recorded request is verified as a receiver would, with
 * the current draft's strict verifier (http-message-sig 0.3) and with Cloudflare's web-bot-auth
 * 0.1.3 (the earlier drafts) at their defaults, the key fetched from our directory over HTTP, and
 * with the example for webhook receivers in docs/web-bot-auth.md, run as written.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRuntime, type LocalRuntime } from '../../scripts/runtime/index.ts';
import { sendJson, useFakeUpstream } from '../support/fake-upstream.ts';
import { TEST_ORIGIN } from '../support/origin.ts';
import { testBlobsDir } from '../support/runtime.ts';
import { serveOnTestPort } from '../support/test-port.ts';
import {
  asRequest,
  DIRECTORY_PATH,
  fetchDirectory,
  provenDirectoryKeys,
  verifyLegacySignature,
  verifySignedRequest,
} from '../support/web-bot-auth.ts';

const upstream = useFakeUpstream();
let runtime: LocalRuntime | undefined;
let server: Server | undefined;

beforeAll(async () => {
  process.env.CONTACT_WEBHOOK_URL = `${upstream.url}/hooks/acme`;
  process.env.TWEETS_SOURCE = 'json';
  process.env.TWEETS_FEED_URL = `${upstream.url}/feed.json?lang=en`;
  upstream.respondWith((req, _body, res) =>
    req.url?.startsWith('/feed.json') ? sendJson(res, 200, { tweets: [liveTweet] }) : sendJson(res, 204, ''),
  );
  runtime = await startRuntime({ blobsDir: testBlobsDir() });
  ({ server } = await serveOnTestPort(runtime));
});

afterAll(async () => {
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
  }
  await runtime?.stop();
  if (runtime) rmSync(runtime.blobsDir, { recursive: true, force: true });
});

/**
 * The "Verifying our webhooks" example of docs/web-bot-auth.md, run as written (only its SITE set to the test
 * origin), so the recipe we give receivers keeps working. Written under node_modules/.cache so its
 * bare imports resolve to this project's web-bot-auth.
 */
async function documentedVerifier(): Promise<(request: Request) => Promise<{ enquiry: { id: string } }>> {
  const doc = readFileSync(path.join(import.meta.dirname, '..', '..', 'docs', 'web-bot-auth.md'), 'utf8');
  const code = /## Verifying our webhooks[\s\S]*?```js\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!code?.includes("const SITE = 'https://www.acme-ai.example';")) throw new Error('docs/web-bot-auth.md example not found');
  const dir = path.join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'doc-examples');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `verify-webhook-${process.pid}.mjs`);
  writeFileSync(file, code.replace("'https://www.acme-ai.example'", JSON.stringify(TEST_ORIGIN)));
  try {
    return ((await import(pathToFileURL(file).href)) as { verifyWebhook: (request: Request) => Promise<{ enquiry: { id: string } }> })
      .verifyWebhook;
  } finally {
    rmSync(file, { force: true });
  }
}

const liveTweet = {
  id: '77',
  text: 'Signed fetch',
  author: { name: 'Feed', username: 'feed' },
  created_at: '2026-11-24T12:00:00Z',
  url: 'https://x.com/feed/status/77',
};

async function postEnquiry(ip: string): Promise<string> {
  const res = await fetch(`${TEST_ORIGIN}/api/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ name: 'Signed Person', email: 'signed@example.com', message: 'verify me' }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

describe("Web Bot Auth for the site's own requests", () => {
  it('serves the key directory over HTTP with its media type and a proof that verifies', async () => {
    const { response, body, keys } = await fetchDirectory(TEST_ORIGIN);
    expect(response.headers.get('content-type')).toBe('application/http-message-signatures-directory+json');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', use: 'sig' });
    expect(keys[0]).not.toHaveProperty('d');
    expect(await provenDirectoryKeys(`${TEST_ORIGIN}${DIRECTORY_PATH}`, response, body)).toEqual([keys[0]!.kid]);
    // The proof is bound to the authority it was fetched from.
    expect(await provenDirectoryKeys(`https://mirror.example${DIRECTORY_PATH}`, response, body)).toEqual([]);
    // The authority the client asked for: 127.0.0.1 as well as localhost; a Host that is not the site's gets a 421, unsigned.
    const port = new URL(TEST_ORIGIN).port;
    const loopback = await fetch(`http://127.0.0.1:${port}${DIRECTORY_PATH}`);
    expect(await provenDirectoryKeys(`http://127.0.0.1:${port}${DIRECTORY_PATH}`, loopback, await loopback.text())).toEqual([keys[0]!.kid]);
    const proxied = await new Promise<Response>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: DIRECTORY_PATH, headers: { host: 'www.acme-ai.example' } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(new Response(text, { status: res.statusCode, headers: res.headers as Record<string, string> })));
      });
      req.on('error', reject);
      req.end();
    });
    expect(proxied.status).toBe(421);
    expect(proxied.headers.get('content-type')).toBe('application/problem+json');
    expect(proxied.headers.get('signature')).toBeNull();
    const head = await fetch(`${TEST_ORIGIN}${DIRECTORY_PATH}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('signature-input')).toMatch(/^binding0=\("@authority";req "content-digest"\)/);
  });

  it('a delivered webhook verifies with both verifiers against the key in our directory; tampered copies do not', async () => {
    const id = await postEnquiry('192.0.2.41');
    const delivery = upstream.requests.find((r) => r.url === '/hooks/acme' && r.body.includes(id));
    expect(delivery).toBeDefined();
    expect(delivery!.headers['signature-agent']).toBe(`sig1="${TEST_ORIGIN}"`);
    expect(delivery!.headers['user-agent']).toBe(`agent-ready-site/1 (+${TEST_ORIGIN})`);
    expect(delivery!.headers['signature-input']).toMatch(
      /^sig1=\("@method" "@authority" "@path" "content-type" "content-digest" "signature-agent";key="sig1"\);created=\d+;expires=\d+;keyid="[\w-]+";alg="ed25519";nonce="[^"]+";tag="web-bot-auth", sig2=\("@method" "@authority" "@path" "content-type" "content-digest" "signature-agent"\);/,
    );

    const { keys } = await fetchDirectory(TEST_ORIGIN);
    expect(await verifySignedRequest(asRequest(delivery!))).toEqual({ agent: TEST_ORIGIN, keyid: keys[0]!.kid });
    expect(await verifyLegacySignature(asRequest(delivery!))).toEqual({ agent: TEST_ORIGIN, keyid: keys[0]!.kid });
    const verifyWebhook = await documentedVerifier();
    expect((await verifyWebhook(asRequest(delivery!))).enquiry.id).toBe(id);
    await expect(verifyWebhook(asRequest(delivery!, { body: delivery!.body.replace('verify me', 'forged') }))).rejects.toThrow(
      'body changed',
    );
    await expect(verifyWebhook(asRequest(delivery!, { path: '/hooks/other' }))).rejects.toThrow();

    const body = JSON.parse(delivery!.body) as { enquiry: { message: string } };
    const forged = JSON.stringify({ ...body, enquiry: { ...body.enquiry, message: 'wire the money' } });
    await expect(verifySignedRequest(asRequest(delivery!, { body: forged }))).rejects.toThrow(/Content-Digest/);
    await expect(verifySignedRequest(asRequest(delivery!, { path: '/hooks/other' }))).rejects.toThrow();
    await expect(verifySignedRequest(asRequest(delivery!, { headers: { host: 'evil.example' } }))).rejects.toThrow();
    await expect(
      verifySignedRequest(
        asRequest(delivery!, {
          headers: { 'signature-input': delivery!.headers['signature-input']!.toString().replace(/created=\d+/, 'created=1') },
        }),
      ),
    ).rejects.toThrow();
  });

  it('the scheduled tweet refresh signs its feed fetch, and the query is covered', async () => {
    const run = await runtime!.invokeScheduled('tweets-refresh');
    expect(run.status).toBeLessThan(300);
    const fetchOfFeed = upstream.requests.findLast((r) => r.url === '/feed.json?lang=en');
    expect(fetchOfFeed).toBeDefined();
    expect(fetchOfFeed!.headers['user-agent']).toBe(`agent-ready-site/1 (+${TEST_ORIGIN})`);
    expect(fetchOfFeed!.headers['signature-input']).toMatch(
      /^sig1=\("@method" "@authority" "@path" "@query" "signature-agent";key="sig1"\)/,
    );
    expect((await verifySignedRequest(asRequest(fetchOfFeed!))).agent).toBe(TEST_ORIGIN);
    expect((await verifyLegacySignature(asRequest(fetchOfFeed!))).agent).toBe(TEST_ORIGIN);
    await expect(verifyLegacySignature(asRequest(fetchOfFeed!, { path: '/feed.json?lang=zh' }))).rejects.toThrow();
    await expect(verifySignedRequest(asRequest(fetchOfFeed!, { path: '/feed.json?lang=zh' }))).rejects.toThrow();
    expect((await (await fetch(`${TEST_ORIGIN}/api/tweets`)).json()).tweets[0].id).toBe('77');
  });
});
