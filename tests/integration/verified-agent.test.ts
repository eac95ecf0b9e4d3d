/**
 * A verified agent through the HTTP runtime: requests signed by a third-party signer
 * (http-message-sig's createSignature, an Ed25519 WebCrypto key) naming a key directory served by a
 * fake agent host on loopback (a third party we cannot reach) are verified, read past the anonymous
 * allowance on the verified one, and are counted as verified agents by the directory's host.
 */
import { appendSignature, component, createSignature, webcrypto } from 'http-message-sig';
import { beforeAll, describe, expect, it } from 'vitest';
import { blobsStore } from '../../netlify/functions/_shared/blobs-store.ts';
import { usageReport } from '../../src/core/analytics/report.ts';
import { thumbprint } from '../../src/core/web-bot-auth/keys.ts';
import { sendJson, useFakeUpstream } from '../support/fake-upstream.ts';
import { TEST_ORIGIN } from '../support/origin.ts';
import { useRuntime } from '../support/runtime.ts';

const agentHost = useFakeUpstream();
let pair: CryptoKeyPair;
let keyid: string;
beforeAll(async () => {
  // A minute of requests at once: 60 anonymous, 300 for a verified agent.
  process.env.READ_LIMIT_PER_SECOND = '1';
  process.env.ANALYTICS_FLUSH_SECONDS = '1';
  pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const { x } = (await crypto.subtle.exportKey('jwk', pair.publicKey)) as { x: string };
  keyid = await thumbprint({ kty: 'OKP', crv: 'Ed25519', x });
  agentHost.respondWith((req, _body, res) =>
    req.url === '/.well-known/http-message-signatures-directory'
      ? sendJson(res, 200, { keys: [{ kty: 'OKP', crv: 'Ed25519', x }] })
      : sendJson(res, 404, {}),
  );
});
const site = useRuntime();

let nonce = 0;
async function signedSearch(ip: string): Promise<Response> {
  const url = `${TEST_ORIGIN}/api/search?q=gateway`;
  const headers = new Headers({ 'signature-agent': `sig1="${agentHost.url}"`, 'x-forwarded-for': ip });
  const created = Math.floor(Date.now() / 1000);
  const fields = await createSignature(
    { kind: 'request', method: 'GET', targetUri: url, fields: [...headers].map(([name, value]) => ({ name, value })) },
    {
      label: 'sig1',
      components: ['@method', '@authority', '@path', '@query', component('signature-agent', { key: 'sig1' })],
      parameters: { created, expires: created + 60, keyid, alg: 'ed25519', nonce: `n${++nonce}-${created}`, tag: 'web-bot-auth' },
      signer: webcrypto.signer(pair.privateKey),
    },
  );
  return site.fetchPath('/api/search?q=gateway', { headers: appendSignature(headers, fields) });
}

describe('a verified agent', () => {
  it("reads on its directory allowance, past a network's, fetches the directory once, and is counted by its host", async () => {
    const statuses: number[] = [];
    // 100 from one network: past the 60 an anonymous network gets at once.
    for (let i = 0; i < 100; i++) statuses.push((await signedSearch('198.51.100.1')).status);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(agentHost.requests.filter((r) => r.url.includes('signatures-directory'))).toHaveLength(1);
    // The network it came from keeps its own anonymous allowance.
    expect((await site.fetchPath('/api/search?q=gateway', { headers: { 'x-forwarded-for': '198.51.100.1' } })).status).toBe(200);

    const analytics = blobsStore('analytics');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await site.fetchPath('/api/search?q=gateway', { headers: { 'x-forwarded-for': '198.51.100.9' } });
    for (let tries = 0; tries < 50 && (await analytics.list('raw/')).length < 2; tries++) await new Promise((r) => setTimeout(r, 100));
    expect((await site.runtime.invokeScheduled('analytics-rollup')).status).toBeLessThan(300);
    const today = new Date().toISOString().slice(0, 10);
    const report = await usageReport(analytics, today, today);
    expect(report.totals['requests.audience.verified-agent']).toBe(100);
    expect(report.totals[`requests.verified.${new URL(agentHost.url).host}`]).toBe(100);
  });

  it('an unverifiable signature is served as unsigned, on the network allowance', async () => {
    const headers = new Headers({
      'signature-agent': `sig1="${agentHost.url}"`,
      signature: 'sig1=:AAAA:',
      'signature-input': 'sig1=("@authority");created=1;keyid="x";nonce="y";tag="web-bot-auth";expires=2',
      'x-forwarded-for': '198.51.100.50',
    });
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await site.fetchPath('/api/search?q=gateway', { headers })).status);
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
  });
});
