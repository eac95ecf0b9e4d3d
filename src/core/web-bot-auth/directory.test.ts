import { describe, expect, it } from 'vitest';
import { provenDirectoryKeys } from '../../../tests/support/web-bot-auth.ts';
import { contentDigest } from './content-digest.ts';
import { edge } from '../kernel/handler.ts';
import {
  DIRECTORY_MEDIA_TYPE,
  DIRECTORY_SIGNATURE_LIFETIME_SECONDS,
  handleSignaturesDirectory,
  SIGNATURES_DIRECTORY_EDGE,
} from './directory.ts';
import { DIRECTORY_MAX_AGE_SECONDS, rotateKeys, type SigningJwk, signingKeySet } from './keys.ts';

const URL_ = 'https://site.example/.well-known/http-message-signatures-directory';
/** A request through the directory's edge (OPTIONS and CORS are the edge's: kernel/handler.ts). */
const serveDirectory = (req: Request, directoryDeps: Parameters<typeof handleSignaturesDirectory>[1]): Promise<Response> =>
  edge((r: Request) => handleSignaturesDirectory(r, directoryDeps), SIGNATURES_DIRECTORY_EDGE)(req);

function deps(keys: SigningJwk[], nowMs = Date.now(), siteOrigin = 'https://site.example') {
  return { keys: () => signingKeySet(keys, Math.floor(nowMs / 1000)), now: () => nowMs, siteOrigin };
}

/** The directory's proof as a verifier checks it (tests/support/web-bot-auth.ts). */
const verifiedBindings = (request: { url: string }, res: Response, body: string): Promise<string[]> =>
  provenDirectoryKeys(request.url, res, body);

describe('GET /.well-known/http-message-signatures-directory', () => {
  it('the digest and the verifier used below reproduce the draft\'s "Signed Directory Response" test vector', async () => {
    const body =
      '{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U","x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs","use":"sig"}]}';
    expect(await contentDigest(body)).toBe('sha-256=:CADMT2aBdV/rqQr/NIru64ERQkCobVvllA4V0fLFDu0=:');
    const vector = new Response(body, {
      headers: {
        'content-digest': 'sha-256=:CADMT2aBdV/rqQr/NIru64ERQkCobVvllA4V0fLFDu0=:',
        'signature-input':
          'binding=("@authority";req "content-digest");created=1735689600;expires=4889289600;keyid="poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U";tag="http-message-signatures-directory"',
        signature: 'binding=:l6P8R67tm3kujAxbHWio7ll01qrEZ0dKD/WWlGhNYEmTnFZM8Wt0VQ9zqGfvo7T/UMkBxsigzChM1Gpz7gOVBg==:',
      },
    });
    expect(
      await verifiedBindings({ url: 'https://signature-agent.test/.well-known/http-message-signatures-directory' }, vector, body),
    ).toEqual(['poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U']);
  });

  it('serves the public keys as a JWKS with the directory media type, cache lifetime, ETag and CORS', async () => {
    const keys = await rotateKeys([], Math.floor(Date.now() / 1000) - 60);
    const res = await serveDirectory(new Request(URL_), deps(keys));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(DIRECTORY_MEDIA_TYPE);
    expect(res.headers.get('cache-control')).toBe(`public, max-age=${DIRECTORY_MAX_AGE_SECONDS}`);
    expect(res.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toContain('Signature-Input');
    const body = await res.text();
    const doc = JSON.parse(body) as { keys: Record<string, unknown>[] };
    expect(doc.keys).toEqual([{ kty: 'OKP', crv: 'Ed25519', x: keys[0]!.x, kid: keys[0]!.kid, use: 'sig', nbf: keys[0]!.nbf }]);
    expect(body).not.toContain(keys[0]!.d);
    expect(res.headers.get('content-digest')).toBe(await contentDigest(body));
  });

  it('signs the response with each published key over "@authority";req and content-digest', async () => {
    const nowMs = Date.now();
    const nowSeconds = Math.floor(nowMs / 1000);
    const rotated = await rotateKeys(await rotateKeys([], nowSeconds - 60), nowSeconds - 30);
    const res = await serveDirectory(new Request(URL_), deps(rotated, nowMs));
    const body = await res.text();
    const input = res.headers.get('signature-input')!;
    expect(input).toMatch(
      /^binding0=\("@authority";req "content-digest"\);created=\d+;keyid="[\w-]+";alg="ed25519";expires=\d+;tag="http-message-signatures-directory", binding1=/,
    );
    expect(input).toContain(`;created=${nowSeconds};`);
    // The retiring key's proof ends with the key; the new key's lasts the full lifetime.
    expect(input).toContain(
      `binding1=("@authority";req "content-digest");created=${nowSeconds};keyid="${rotated[1]!.kid}";alg="ed25519";expires=${rotated[1]!.exp};`,
    );
    expect(input).toContain(`;expires=${nowSeconds + DIRECTORY_SIGNATURE_LIFETIME_SECONDS};`);
    expect(res.headers.get('signature')).toMatch(/^binding0=:[^:]+:, binding1=:[^:]+:$/);
    expect(await verifiedBindings({ url: URL_ }, res, body)).toEqual(rotated.map((k) => k.kid));
  });

  it('a proof fails for a copy re-served under another authority or with another key set', async () => {
    const keys = await rotateKeys([], Math.floor(Date.now() / 1000) - 60);
    const res = await serveDirectory(new Request(URL_), deps(keys));
    const body = await res.text();
    expect(await verifiedBindings({ url: URL_ }, res, body)).toEqual([keys[0]!.kid]);
    expect(await verifiedBindings({ url: 'https://mirror.example/.well-known/http-message-signatures-directory' }, res, body)).toEqual([]);
    const other = await rotateKeys([], 0);
    expect(
      await verifiedBindings({ url: URL_ }, res, JSON.stringify({ keys: [{ ...JSON.parse(body).keys[0], x: other[0]!.x }] }, null, 2)),
    ).toEqual([]);
  });

  it("signs the authority the client asked for (its Host) when it is one of the site's, not the one the runtime rebuilt", async () => {
    const keys = await rotateKeys([], Math.floor(Date.now() / 1000) - 60);
    const path = '/.well-known/http-message-signatures-directory';
    const local = deps(keys, Date.now(), 'http://localhost:8899');
    // npm start rebuilds every URL as http://localhost:<port>; a client that dialled 127.0.0.1 sent that Host.
    const loopback = await serveDirectory(new Request(`http://localhost:8899${path}`, { headers: { host: '127.0.0.1:8899' } }), local);
    const body = await loopback.text();
    expect(await verifiedBindings({ url: `http://127.0.0.1:8899${path}` }, loopback, body)).toEqual([keys[0]!.kid]);
    expect(await verifiedBindings({ url: `http://localhost:8899${path}` }, loopback, body)).toEqual([]);
    // A reverse proxy that forwards the client's Host: the configured origin's host is signed.
    const proxied = await serveDirectory(
      new Request(`http://localhost:8899${path}`, { headers: { host: 'www.acme-ai.example' } }),
      deps(keys, Date.now(), 'https://www.acme-ai.example'),
    );
    expect(await verifiedBindings({ url: `https://www.acme-ai.example${path}` }, proxied, body)).toEqual([keys[0]!.kid]);
    // A Host that is not an authority is not signed: the URL's own authority is.
    const odd = await serveDirectory(new Request(`http://localhost:8899${path}`, { headers: { host: 'evil.example/x' } }), local);
    expect(await verifiedBindings({ url: `http://localhost:8899${path}` }, odd, body)).toEqual([keys[0]!.kid]);
  });

  it("answers a Host that is not the site's with a 421 problem and no signature; X-Forwarded-Host is ignored", async () => {
    const keys = await rotateKeys([], Math.floor(Date.now() / 1000) - 60);
    const path = '/.well-known/http-message-signatures-directory';
    const local = deps(keys, Date.now(), 'http://localhost:8899');
    for (const host of ['evil.example', 'localhost:8898', '127.0.0.1:9999', 'site.example.evil.example']) {
      const res = await serveDirectory(new Request(`http://localhost:8899${path}`, { headers: { host } }), local);
      expect(res.status, host).toBe(421);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.headers.get('signature')).toBeNull();
      expect(res.headers.get('signature-input')).toBeNull();
      expect(((await res.json()) as { detail: string }).detail).toContain(`http://localhost:8899${path}`);
    }
    // Deployed (the runtime's URL is the client's host): only the configured origin's host and the ones isOwnHost names.
    const deployed = { ...deps(keys), isOwnHost: (host: string) => host === 'acme.netlify.app' };
    expect((await serveDirectory(new Request(`https://evil.example${path}`), deployed)).status).toBe(421);
    const netlifyName = await serveDirectory(new Request(`https://acme.netlify.app${path}`), deployed);
    expect(await verifiedBindings({ url: `https://acme.netlify.app${path}` }, netlifyName, await netlifyName.text())).toEqual([
      keys[0]!.kid,
    ]);
    const forwarded = await serveDirectory(new Request(URL_, { headers: { 'x-forwarded-host': 'evil.example' } }), deployed);
    const forwardedBody = await forwarded.text();
    expect(await verifiedBindings({ url: URL_ }, forwarded, forwardedBody)).toEqual([keys[0]!.kid]);
    expect(await verifiedBindings({ url: `https://evil.example${path}` }, forwarded, forwardedBody)).toEqual([]);
    // A conditional request under another host is refused too, not answered with a signed 304.
    const etag = forwarded.headers.get('etag')!;
    const conditional = await serveDirectory(new Request(`https://evil.example${path}`, { headers: { 'if-none-match': etag } }), deployed);
    expect(conditional.status).toBe(421);
  });

  it('answers If-None-Match with a signed 304, OPTIONS with 204 and other methods with a 405 problem', async () => {
    const keys = await rotateKeys([], Math.floor(Date.now() / 1000) - 60);
    const first = await serveDirectory(new Request(URL_), deps(keys));
    const body = await first.text();
    const again = await serveDirectory(new Request(URL_, { headers: { 'if-none-match': first.headers.get('etag')! } }), deps(keys));
    expect(again.status).toBe(304);
    expect(await verifiedBindings({ url: URL_ }, again, body)).toEqual([keys[0]!.kid]);
    expect((await serveDirectory(new Request(URL_, { method: 'OPTIONS' }), deps(keys))).status).toBe(204);
    const post = await serveDirectory(new Request(URL_, { method: 'POST', body: '{}' }), deps(keys));
    expect(post.status).toBe(405);
    expect(post.headers.get('content-type')).toBe('application/problem+json');
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
