import { describe, expect, it } from 'vitest';
import { useBlobs } from '../../../tests/support/blobs.ts';
import { parseRuntimeConfig } from '../config.ts';
import {
  DIRECTORY_MAX_AGE_SECONDS,
  generateSigningKey,
  loadSigningKeys,
  parseSigningKeys,
  PREPUBLISH_SECONDS,
  publicJwk,
  RETIREMENT_OVERLAP_SECONDS,
  rotateKeys,
  rotateStoredKeys,
  signingKeySet,
  thumbprint,
} from './keys.ts';

const blobs = useBlobs();
const T0 = 1_800_000_000;

/** RFC 9421 Appendix B.1.4, the key the httpsig-protocol draft's test vectors use. */
const RFC9421_ED25519 = {
  kty: 'OKP',
  crv: 'Ed25519',
  x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs',
  d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU',
} as const;

describe('Web Bot Auth keys', () => {
  it("names a key by its RFC 7638 thumbprint, as the draft's test vectors do", async () => {
    expect(await thumbprint(RFC9421_ED25519)).toBe('poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U');
    const key = await generateSigningKey(T0);
    expect(key).toMatchObject({ kty: 'OKP', crv: 'Ed25519', use: 'sig', nbf: T0 });
    expect(key.kid).toBe(await thumbprint(key));
    expect(publicJwk(key)).toEqual({ kty: 'OKP', crv: 'Ed25519', x: key.x, kid: key.kid, use: 'sig', nbf: T0 });
  });

  it('rotation publishes the new key an hour before it signs and keeps the old one until its signatures have expired', async () => {
    const first = await rotateKeys([], T0);
    expect(first).toHaveLength(1);
    expect(first[0]!.nbf).toBe(T0); // the very first key signs at once

    const rotated = await rotateKeys(first, T0 + 100);
    const [next, old] = rotated;
    expect(next!.nbf).toBe(T0 + 100 + PREPUBLISH_SECONDS);
    expect(PREPUBLISH_SECONDS).toBe(DIRECTORY_MAX_AGE_SECONDS);
    expect(old).toMatchObject({ kid: first[0]!.kid, exp: next!.nbf + RETIREMENT_OVERLAP_SECONDS });

    const justAfter = await signingKeySet(rotated, T0 + 101);
    expect(justAfter.active.keyid).toBe(old!.kid);
    expect(justAfter.published.map((k) => k.kid)).toEqual([next!.kid, old!.kid]);
    expect(justAfter.signers).toHaveLength(2);

    const handover = await signingKeySet(rotated, next!.nbf);
    expect(handover.active.keyid).toBe(next!.kid);
    expect(handover.published).toHaveLength(2);

    const later = await signingKeySet(rotated, next!.nbf + RETIREMENT_OVERLAP_SECONDS);
    expect(later.published.map((k) => k.kid)).toEqual([next!.kid]);
    // Expired keys are dropped from the next value to set.
    expect((await rotateKeys(rotated, next!.nbf + RETIREMENT_OVERLAP_SECONDS)).map((k) => k.kid)).not.toContain(old!.kid);
  });

  it('refuses a key whose kid is not its thumbprint, and a set with no key valid now', async () => {
    const key = await generateSigningKey(T0);
    await expect(signingKeySet([{ ...key, kid: 'my-key' }], T0)).rejects.toThrow(/thumbprint/);
    await expect(signingKeySet([{ ...key, nbf: T0 + 10 }], T0)).rejects.toThrow(/No Web Bot Auth signing key/);
    await expect(signingKeySet([{ ...key, exp: T0 }], T0)).rejects.toThrow(/No Web Bot Auth signing key/);
  });

  it('parses WEB_BOT_AUTH_SIGNING_KEYS and says what is wrong with a bad value', async () => {
    const key = await generateSigningKey(T0);
    const value = JSON.stringify({ keys: [key] });
    expect(parseSigningKeys(value)).toEqual([key]);
    expect(parseRuntimeConfig({ WEB_BOT_AUTH_SIGNING_KEYS: value }).webBotAuthKeys).toEqual([key]);
    expect(parseRuntimeConfig({}).webBotAuthKeys).toBeNull();
    expect(() => parseSigningKeys('nope')).toThrow(/not JSON/);
    expect(() => parseSigningKeys('{"keys":[]}')).toThrow(/at least one key/);
    expect(() => parseSigningKeys(JSON.stringify({ keys: [{ ...key, kty: 'RSA' }] }))).toThrow(/kty must be "OKP"/);
    expect(() => parseRuntimeConfig({ WEB_BOT_AUTH_SIGNING_KEYS: 'nope' })).toThrow(/WEB_BOT_AUTH_SIGNING_KEYS.*JSON/);
    expect(() => parseRuntimeConfig({ WEB_BOT_AUTH_SIGNING_KEYS: JSON.stringify({ keys: [{ ...key, d: undefined }] }) })).toThrow(
      /WEB_BOT_AUTH_SIGNING_KEYS/,
    );
  });

  it("uses the environment's keys when set, else generates one key into Blobs that concurrent first uses share", async () => {
    const envKey = await generateSigningKey(T0);
    const store = blobs.store('keys');
    expect(await loadSigningKeys({ envKeys: [envKey], store, nowSeconds: T0 })).toEqual([envKey]);
    expect(await store.get('web-bot-auth')).toBeNull();

    const loaded = await Promise.all([1, 2, 3].map(() => loadSigningKeys({ envKeys: null, store, nowSeconds: T0 })));
    expect(new Set(loaded.map((keys) => keys[0]!.kid)).size).toBe(1);
    expect(loaded[0]).toHaveLength(1);

    const rotated = await rotateStoredKeys(store, T0 + 10);
    expect(rotated[1]!.kid).toBe(loaded[0]![0]!.kid);
    expect((await loadSigningKeys({ envKeys: null, store, nowSeconds: T0 + 10 })).map((k) => k.kid)).toEqual(rotated.map((k) => k.kid));
  });
});
