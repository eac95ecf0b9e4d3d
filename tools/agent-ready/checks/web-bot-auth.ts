/**
 * webBotAuth check: the Web Bot Auth key directory (draft-meunier-webbotauth-httpsig-protocol-02,
 * adopted as draft-ietf-webbotauth-httpsig-protocol): `/.well-known/http-message-signatures-directory`
 * served as `application/http-message-signatures-directory+json`, a JWKS whose keys a verifier can
 * use, and, when the response is signed, signatures that verify (Cloudflare's `web-bot-auth`
 * imports the keys and checks each signature; `http-message-sig` builds the signature base).
 * @module
 */
import { verify as verifyMessage, type RequestLike, type ResponseLike } from 'http-message-sig';
import { type Dictionary, parseDictionary, type InnerList } from 'structured-headers';
import { helpers, jwkToKeyID, MediaType, Tag } from 'web-bot-auth';
import { verifierFromJWK } from 'web-bot-auth/crypto';
import { type Fetched, get, mediaType, parseJsonObject, problemWith, sha256Hex, summary } from '../http.ts';
import { splitSignatures } from '../http-message-sig-one-signature.ts';
import { type CheckContext, fail, neutral, pass, type Verdict } from '../types.ts';

export const WEB_BOT_AUTH_PATH = '/.well-known/http-message-signatures-directory';
export const DIRECTORY_MEDIA_TYPE: string = MediaType.HTTP_MESSAGE_SIGNATURES_DIRECTORY;
/** The `tag` a directory response signature carries (not `web-bot-auth`, which request signatures use). */
export const DIRECTORY_SIGNATURE_TAG: string = Tag.HTTP_MESSAGE_SIGNAGURES_DIRECTORY;

const FIX =
  'Only if your own bots sign their requests (Web Bot Auth): publish their public Ed25519 keys as {"keys":[{kty:"OKP",crv:"Ed25519",x,kid:<JWK thumbprint>}]} at /.well-known/http-message-signatures-directory (Content-Type: application/http-message-signatures-directory+json), ideally signed per key with tag="http-message-signatures-directory" over "@authority";req and content-digest.';

type Jwk = Record<string, unknown>;

/** RFC 7638 thumbprint, base64url: what `keyid` (and `kid`, when present) must be. */
export function thumbprintOf(jwk: Jwk): Promise<string> {
  return jwkToKeyID(jwk as JsonWebKey, helpers.WEBCRYPTO_SHA256, helpers.BASE64URL_DECODE);
}

/** Validates one key: public only, importable by a Web Bot Auth verifier, `kid` = thumbprint. Returns the thumbprint or a reason. */
async function keyProblem(jwk: unknown, i: number): Promise<{ thumbprint: string } | string> {
  if (!jwk || typeof jwk !== 'object' || Array.isArray(jwk)) return `keys[${i}] is not a JWK object`;
  const key = jwk as Jwk;
  if (key.d !== undefined || key.p !== undefined) return `keys[${i}] publishes private key material ("d")`;
  try {
    await verifierFromJWK(key as JsonWebKey);
  } catch (error) {
    return `keys[${i}] (${String(key.kty)}${key.crv ? ` ${String(key.crv)}` : ''}) is not a key Web Bot Auth verifiers can use: ${error instanceof Error ? error.message : String(error)}`;
  }
  const thumbprint = await thumbprintOf(key);
  if (key.kid !== undefined && key.kid !== thumbprint)
    return `keys[${i}].kid is ${JSON.stringify(key.kid)}, not its JWK thumbprint ${thumbprint}`;
  return { thumbprint };
}

/** A component of a Signature-Input inner list, as `name` plus its flags (`"@authority";req` → `@authority;req`). */
function componentNames(list: InnerList): string[] {
  return list[0].map(([name, params]) => [String(name), ...[...params.keys()]].join(';'));
}

/** `sha-256=:<base64>:` of the body matches the `Content-Digest` field (RFC 9530). */
async function contentDigestMatches(res: Fetched): Promise<boolean> {
  const header = res.headers.get('content-digest');
  if (!header) return false;
  const member = parseDictionary(header).get('sha-256');
  if (!member || !(member[0] instanceof ArrayBuffer)) return false;
  const declared = [...new Uint8Array(member[0])].map((b) => b.toString(16).padStart(2, '0')).join('');
  return declared === (await sha256Hex(res.bytes));
}

/**
 * Verifies every signature on the directory response. Returns a summary or the reason one fails.
 * Each must carry the directory tag, `created` and `expires` (now within them), a `keyid` that is
 * the thumbprint of a published key, and cover `"@authority";req`; `content-digest`, when covered,
 * must match the body. The -02 draft also asks for `content-digest` coverage; signatures without
 * it (what web-bot-auth 0.1.3's `directoryResponseHeaders` writes) pass with a note.
 */
async function signatureProblem(res: Fetched, keys: Map<string, Jwk>): Promise<{ summary: string } | string> {
  const input = res.headers.get('signature-input');
  const signature = res.headers.get('signature');
  if (!input)
    return { summary: signature ? 'a Signature without Signature-Input (ignored)' : 'unsigned (signing the directory is RECOMMENDED)' };
  let dictionary: Dictionary;
  try {
    dictionary = parseDictionary(input);
  } catch {
    return 'Signature-Input is not an RFC 9651 dictionary'; // the parser's detail is noise in a one-line reason
  }
  const signed = new Set<string>();
  let withDigest = 0;
  for (const one of splitSignatures(input, signature ?? '')) {
    const member = dictionary.get(one.label);
    if (!member || !Array.isArray(member[0])) return `Signature-Input "${one.label}" is not a component list`;
    const components = componentNames(member as InnerList);
    const params = (member as InnerList)[1];
    if (params.get('tag') !== DIRECTORY_SIGNATURE_TAG)
      return `signature "${one.label}" has tag ${JSON.stringify(params.get('tag') ?? null)}, not "${DIRECTORY_SIGNATURE_TAG}"`;
    if (typeof params.get('created') !== 'number' || typeof params.get('expires') !== 'number')
      return `signature "${one.label}" lacks "created" or "expires"`;
    if (!components.includes('@authority;req'))
      return `signature "${one.label}" does not cover "@authority";req (covers ${components.join(' ') || 'nothing'})`;
    const keyid = params.get('keyid');
    const key = typeof keyid === 'string' ? keys.get(keyid) : undefined;
    if (!key) return `signature "${one.label}" names keyid ${JSON.stringify(keyid ?? null)}, which is no published key's thumbprint`;
    if (!one.signature) return `signature "${one.label}" has no value in the Signature field`;
    if (components.includes('content-digest')) {
      if (!(await contentDigestMatches(res)))
        return `signature "${one.label}" covers content-digest, but Content-Digest is missing or does not match the body's SHA-256`;
      withDigest++;
    }
    const request: RequestLike = { method: 'GET', url: res.url, headers: {} };
    const response: ResponseLike = {
      status: res.status,
      headers: {
        'signature-input': one.signatureInput,
        signature: one.signature,
        'content-digest': res.headers.get('content-digest') ?? '',
      },
    };
    const verifier = await verifierFromJWK(key as JsonWebKey);
    try {
      await verifyMessage({ request, response }, async (data, bytes, parameters) => {
        if (parameters.created && parameters.created.getTime() > Date.now()) throw new Error('"created" is in the future');
        return verifier(data, bytes, parameters as Parameters<typeof verifier>[2]);
      });
    } catch (error) {
      return `signature "${one.label}" does not verify: ${error instanceof Error ? error.message : String(error)}`;
    }
    signed.add(keyid as string);
  }
  const digest = withDigest === signed.size ? 'with content-digest' : 'without content-digest (the -02 draft asks for it)';
  return { summary: `signed by ${signed.size} of ${keys.size} key(s), ${digest}` };
}

/**
 * webBotAuth: a valid directory → pass. No directory (any answer but 200 with a non-HTML body), or
 * one with an empty `keys` (a site stating that it signs nothing) → neutral, as on the scanner: only
 * sites whose bots sign requests need one. A directory that is served with keys but is wrong (media
 * type, keys a verifier cannot use, a signature that does not verify) fails: verifiers would
 * reject the site's bots (stricter than the scanner, which reports neutral).
 */
export async function checkWebBotAuth(ctx: CheckContext): Promise<Verdict> {
  const res = await get(ctx, WEB_BOT_AUTH_PATH, { accept: `${DIRECTORY_MEDIA_TYPE}, application/json` });
  const absent = problemWith(ctx, res, 'json');
  if (absent) return neutral(`no key directory (${absent}); only sites whose bots sign their requests need one`, FIX);
  const doc = parseJsonObject(res);
  if (typeof doc === 'string') return fail(`${WEB_BOT_AUTH_PATH}: ${doc}`, FIX);
  const keys = doc.keys;
  if (!Array.isArray(keys)) return fail(`${WEB_BOT_AUTH_PATH} is not a JWKS (no "keys" array)`, FIX);
  if (keys.length === 0) return neutral(`${WEB_BOT_AUTH_PATH} publishes no keys (the site signs no requests)`, FIX);
  if (mediaType(res) !== DIRECTORY_MEDIA_TYPE) return fail(`${summary(ctx, res)}: expected ${DIRECTORY_MEDIA_TYPE}`, FIX);
  const byThumbprint = new Map<string, Jwk>();
  for (const [i, key] of keys.entries()) {
    const checked = await keyProblem(key, i);
    if (typeof checked === 'string') return fail(`${WEB_BOT_AUTH_PATH}: ${checked}`, FIX);
    byThumbprint.set(checked.thumbprint, key as Jwk);
  }
  const signatures = await signatureProblem(res, byThumbprint);
  if (typeof signatures === 'string') return fail(`${WEB_BOT_AUTH_PATH}: ${signatures}`, FIX);
  const types = [...new Set(keys.map((k: Jwk) => (k.crv ? String(k.crv) : String(k.kty))))].join(', ');
  return pass(`${WEB_BOT_AUTH_PATH}: ${keys.length} ${types} key(s), ${signatures.summary}`);
}
