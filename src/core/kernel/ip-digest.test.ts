import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useBlobs } from '../../../tests/support/blobs.ts';
import { ipDigest, loadIpDigestSecret } from './ip-digest.ts';

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
