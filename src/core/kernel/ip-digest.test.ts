import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useBlobs } from '../../../tests/support/blobs.ts';
import { ipDigest, loadIpDigestSecret } from './ip-digest.ts';
import { memoryStore } from './memory-store.ts';
import type { Store } from './store.ts';

const blobs = useBlobs();

describe('ipDigest', () => {
  it('is HMAC-SHA-256 under the secret: stable per address, different per secret, not the plain hash', async () => {
    const secret = 's'.repeat(32);
    expect(await ipDigest(secret, '198.51.100.7')).toBe(createHmac('sha256', secret).update('198.51.100.7').digest('hex'));
    expect(await ipDigest(secret, '198.51.100.7')).toBe(await ipDigest(secret, '198.51.100.7'));
    expect(await ipDigest(secret, '198.51.100.8')).not.toBe(await ipDigest(secret, '198.51.100.7'));
    expect(await ipDigest('t'.repeat(32), '198.51.100.7')).not.toBe(await ipDigest(secret, '198.51.100.7'));
  });
});

describe('loadIpDigestSecret', () => {
  it("uses the operator's secret when set", async () => {
    expect(await loadIpDigestSecret({ envValue: 'x'.repeat(40), store: blobs.store('keys') })).toBe('x'.repeat(40));
  });
  it('otherwise generates one secret, shared by concurrent first uses and kept across calls', async () => {
    const store = blobs.store('keys');
    const secrets = await Promise.all(Array.from({ length: 8 }, () => loadIpDigestSecret({ envValue: undefined, store })));
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]!.length).toBeGreaterThanOrEqual(32);
    expect(await loadIpDigestSecret({ envValue: '', store })).toBe(secrets[0]);
  });
});

describe('the generated secret', () => {
  it('is 256 random bits as base64url, stored create-only; a store that loses it is an error', async () => {
    const store = memoryStore();
    const secret = await loadIpDigestSecret({ envValue: null, store });
    expect(secret).toMatch(/^[\w-]{43}$/);
    expect((await store.get('ip-digest-secret'))?.value).toEqual({ secret });
    const forgetful: Store = { ...memoryStore(), get: async () => null };
    await expect(loadIpDigestSecret({ envValue: undefined, store: forgetful })).rejects.toThrow('The IP digest secret could not be stored');
  });

  it('a digest follows the secret it is asked with, also after another secret was used', async () => {
    const a = 'a'.repeat(32);
    const b = 'b'.repeat(32);
    const first = await ipDigest(a, '203.0.113.1');
    await ipDigest(b, '203.0.113.1');
    expect(await ipDigest(a, '203.0.113.1')).toBe(first);
    // RFC 4231 test case 2.
    expect(await ipDigest('Jefe', 'what do ya want for nothing?')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });
});
