/** Signing keys in-process: rotation, what stays published, parsing the environment, and the keys kept in a store. */
import { calculateJwkThumbprint } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { memoryStore } from '../../kernel/memory-store.ts';
import type { Store } from '../../kernel/store.ts';
import {
  generateKeyRecord,
  type KeyRecord,
  keySetOf,
  liveRecords,
  loadKeyRecords,
  parseKeyRecords,
  publicJwk,
  RETIRED_KEY_GRACE_SECONDS,
  rotate,
  rotateStoredKeys,
} from './keys.ts';
import { mintAccessToken, verifyAccessToken } from './tokens.ts';

const T0 = 1_800_000_000;
const ISSUER = 'https://site.example';
const AUD = 'https://site.example/mcp';

/** RSA key generation is slow: two records, reused (tests copy them, never change them). */
let first: KeyRecord;
let second: KeyRecord;
beforeAll(async () => {
  [first, second] = await Promise.all([generateKeyRecord(T0), generateKeyRecord(T0 + 10)]);
});

const verifyWith = async (records: readonly KeyRecord[], token: string, now: number) =>
  verifyAccessToken(token, { keys: await keySetOf(records, now), issuer: ISSUER, audience: AUD, nowSeconds: now, revocations: null });

async function mintWith(records: readonly KeyRecord[], now: number): Promise<string> {
  const keys = await keySetOf(records, now);
  const input = { issuer: ISSUER, audience: AUD, clientId: 'agt_k', subject: 'agt_k', scope: 'articles:read', nowSeconds: now };
  return (await mintAccessToken(keys, input)).token;
}

describe('rotation', () => {
  it('a second rotation keeps the retirement date of the key the first one retired', async () => {
    const t1 = T0 + 1000;
    const t2 = t1 + 600;
    const once = await rotate([first], t1);
    const twice = await rotate(once, t2);
    expect(twice).toHaveLength(3);
    expect(twice.find((r) => r.kid === first.kid)?.retired_at).toBe(t1);
    expect(twice.find((r) => r.kid === once[0]!.kid)?.retired_at).toBe(t2);
    expect(twice[0]!.retired_at).toBeUndefined();
    // A token the first key signed stops verifying when its own grace period ends, not the later key's.
    const oldToken = await mintWith([first], t1 - 1);
    expect((await verifyWith(twice, oldToken, t1 + 10)).ok).toBe(true);
    const afterFirstGrace = t1 + RETIRED_KEY_GRACE_SECONDS;
    expect(afterFirstGrace).toBeLessThan(t2 + RETIRED_KEY_GRACE_SECONDS);
    expect(liveRecords(twice, afterFirstGrace).map((r) => r.kid)).toEqual([twice[0]!.kid, once[0]!.kid]);
    expect(await verifyWith(twice, oldToken, afterFirstGrace)).toEqual({ ok: false, reason: 'unknown_key' });
  });

  it('the new key signs; the retired one verifies what it signed until its grace period ends', async () => {
    const rotated = await rotate([first], T0 + 100);
    const keys = await keySetOf(rotated, T0 + 100);
    expect(keys.active.kid).toBe(rotated[0]!.kid);
    expect(keys.active.kid).not.toBe(first.kid);
    expect([...keys.verifiers.keys()].sort()).toEqual([first.kid, rotated[0]!.kid].sort());
    const oldToken = await mintWith([first], T0 + 99);
    expect((await verifyWith(rotated, oldToken, T0 + 200)).ok).toBe(true);
    expect((await verifyWith(rotated, await mintWith(rotated, T0 + 200), T0 + 200)).ok).toBe(true);
    const graceEnds = T0 + 100 + RETIRED_KEY_GRACE_SECONDS;
    expect((await keySetOf(rotated, graceEnds - 1)).verifiers.has(first.kid)).toBe(true);
    expect((await keySetOf(rotated, graceEnds)).verifiers.has(first.kid)).toBe(false);
  });
});

describe('liveRecords and keySetOf', () => {
  it('serve the newest first, and drop a retired key exactly when its grace period ends', () => {
    const retired = { ...first, retired_at: T0 + 20 };
    const records = [retired, second];
    expect(liveRecords(records, T0 + 20 + RETIRED_KEY_GRACE_SECONDS - 1).map((r) => r.kid)).toEqual([second.kid, first.kid]);
    expect(liveRecords(records, T0 + 20 + RETIRED_KEY_GRACE_SECONDS).map((r) => r.kid)).toEqual([second.kid]);
    // An active key is served however old it is.
    expect(liveRecords([first], T0 + 10 * RETIRED_KEY_GRACE_SECONDS)).toHaveLength(1);
  });

  it('publish only public halves, with kid, alg and use', async () => {
    const keys = await keySetOf([{ ...first, retired_at: T0 + 20 }, second], T0 + 30);
    expect(keys.publicJwks.map((jwk) => jwk.kid)).toEqual([second.kid, first.kid]);
    for (const jwk of keys.publicJwks) {
      expect(Object.keys(jwk).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
      expect(jwk).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    }
    expect(publicJwk({ kty: 'RSA', n: 'n', e: 'AQAB', d: 'secret' })).toEqual({
      kty: 'RSA',
      n: 'n',
      e: 'AQAB',
      kid: undefined,
      alg: 'RS256',
      use: 'sig',
    });
    expect(publicJwk({ ...first.private_jwk, alg: 'PS256', use: 'enc' })).toMatchObject({ alg: 'PS256', use: 'enc' });
  });

  it('refuse a set where every key is retired', async () => {
    await expect(keySetOf([{ ...first, retired_at: T0 + 20 }], T0 + 30)).rejects.toThrow('No active signing key');
  });
});

describe('parseKeyRecords (OAUTH_SIGNING_KEYS)', () => {
  it('returns the records of a valid value', () => {
    expect(parseKeyRecords(JSON.stringify([first, second])).map((r) => r.kid)).toEqual([first.kid, second.kid]);
  });

  it.each([
    ['not JSON', '[{', /not JSON/],
    ['an object', '{}', /non-empty JSON array/],
    ['an empty array', '[]', /non-empty JSON array/],
    ['null', 'null', /non-empty JSON array/],
    ['a null entry', '[null]', /RSA private_jwk/],
    ['no kid', () => [{ ...first, kid: undefined }], /RSA private_jwk/],
    ['a public key only', () => [{ ...first, private_jwk: { ...first.private_jwk, d: undefined } }], /RSA private_jwk/],
    ['an EC key', () => [{ ...first, private_jwk: { ...first.private_jwk, kty: 'EC' } }], /RSA private_jwk/],
    ['created_at as text', () => [{ ...first, created_at: String(T0) }], /RSA private_jwk/],
    ['one bad entry after a good one', () => [first, { kid: 'x' }], /RSA private_jwk/],
  ])('refuses %s', (_name, value, message) => {
    const json = typeof value === 'string' ? value : JSON.stringify(value());
    expect(() => parseKeyRecords(json)).toThrow(message);
  });
});

describe('keys kept in a store (local runs)', () => {
  it('the environment wins over the store', async () => {
    const store = memoryStore();
    await store.set('signing', [second]);
    expect((await loadKeyRecords({ envValue: JSON.stringify([first]), store, nowSeconds: T0 })).map((r) => r.kid)).toEqual([first.kid]);
    expect((await loadKeyRecords({ envValue: '', store, nowSeconds: T0 })).map((r) => r.kid)).toEqual([second.kid]);
  });

  it('the first use creates one key; concurrent first uses agree on it; later uses read it', async () => {
    const store = memoryStore();
    const [a, b] = await Promise.all([loadKeyRecords({ store, nowSeconds: T0 }), loadKeyRecords({ store, nowSeconds: T0 })]);
    expect(a).toHaveLength(1);
    expect(b.map((r) => r.kid)).toEqual(a.map((r) => r.kid));
    expect(a[0]!.created_at).toBe(T0);
    expect((await store.get<KeyRecord[]>('signing'))?.value.map((r) => r.kid)).toEqual([a[0]!.kid]);
    expect((await loadKeyRecords({ store, nowSeconds: T0 + 5 })).map((r) => r.kid)).toEqual([a[0]!.kid]);
  });

  it('a key that vanishes while it is being created is an error, not a silent new key', async () => {
    const store: Store = { ...memoryStore(), get: async () => null, set: async () => ({ modified: false }) };
    await expect(loadKeyRecords({ store, nowSeconds: T0 })).rejects.toThrow('vanished');
  });

  it('rotating an empty store creates the first key; rotating again retires it', async () => {
    const store = memoryStore();
    const created = await rotateStoredKeys(store, T0);
    expect(created).toHaveLength(1);
    const rotated = await rotateStoredKeys(store, T0 + 5);
    expect(rotated.map((r) => r.kid)).toEqual([rotated[0]!.kid, created[0]!.kid]);
    expect(rotated[1]!.retired_at).toBe(T0 + 5);
    expect((await store.get<KeyRecord[]>('signing'))?.value).toEqual(rotated);
  });

  it('a rotation that loses every compare-and-set gives up with an error', async () => {
    const inner = memoryStore();
    await inner.set('signing', [first]);
    let writes = 0;
    const store: Store = {
      ...inner,
      set: async () => {
        writes++;
        return { modified: false };
      },
    };
    await expect(rotateStoredKeys(store, T0 + 5)).rejects.toThrow('concurrent writers');
    expect(writes).toBe(5);
    expect((await inner.get<KeyRecord[]>('signing'))?.value.map((r) => r.kid)).toEqual([first.kid]);
  });
});

describe('a new key record', () => {
  it('is an RS256 signing key named by its JWK thumbprint, created now', async () => {
    const record = await generateKeyRecord(T0 + 7);
    expect(record.created_at).toBe(T0 + 7);
    expect(record.retired_at).toBeUndefined();
    expect(record.private_jwk).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: record.kid });
    expect(record.kid).toBe(await calculateJwkThumbprint({ kty: 'RSA', n: record.private_jwk.n!, e: record.private_jwk.e! }));
    expect(typeof record.private_jwk.d).toBe('string');
    expect((await keySetOf([record], T0 + 7)).publicJwks).toEqual([
      { kty: 'RSA', n: record.private_jwk.n, e: record.private_jwk.e, kid: record.kid, alg: 'RS256', use: 'sig' },
    ]);
  });

  it('a value that is not JSON is refused with the parse error as its cause', () => {
    const error = (() => {
      try {
        parseKeyRecords('[{');
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toBe('OAUTH_SIGNING_KEYS is not JSON');
    expect(error?.cause).toBeInstanceOf(SyntaxError);
  });
});

describe('rotating the stored keys while another rotation lands', () => {
  it.each([
    ['keys already stored', true],
    ['an empty store', false],
  ])('%s: the other rotation is kept, not overwritten', async (_name, prefilled) => {
    const inner = memoryStore();
    if (prefilled) await inner.set('signing', [first]);
    let reads = 0;
    const racing: Store = {
      ...inner,
      get: async <T>(key: string) => {
        const found = await inner.get<T>(key);
        // Another rotation writes right after this one's first read.
        if (++reads === 1) await inner.set('signing', [second]);
        return found;
      },
    };
    const rotated = await rotateStoredKeys(racing, T0 + 50);
    expect(rotated.map((r) => r.kid)).toContain(second.kid);
    expect((await inner.get<KeyRecord[]>('signing'))?.value.map((r) => r.kid)).toContain(second.kid);
  });
});
