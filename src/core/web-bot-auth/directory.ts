/**
 * `GET /.well-known/http-message-signatures-directory`: this site's Web Bot Auth public keys as a
 * JWKS, served as `application/http-message-signatures-directory+json`, with the possession proof
 * of the httpsig-protocol draft (appendix "Possession Proof on the Directory Response"): one
 * signature per published key over `"@authority";req` and `content-digest`, with `created`,
 * `expires`, `keyid` = the key's thumbprint and `tag="http-message-signatures-directory"`.
 *
 * Signed with http-message-sig 0.3 (Cloudflare's RFC 9421 library, as the request signatures are)
 * rather than web-bot-auth's `directoryResponseHeaders`, which covers only `"@authority";req` (the
 * older directory draft) and so does not meet the current draft's `content-digest` requirement.
 * `"@authority";req` is the authority the client asked for ({@link requestedUrl}), and only one of
 * the site's own ({@link isSiteAuthority}): any other gets a 421 problem, never a signature, so the
 * directory cannot bind this site's keys to a host the site does not own.
 * @module
 */
import { appendSignature, component, createSignature } from 'http-message-sig';
import { type CorsPolicy, PUBLIC_DOCUMENT_CORS } from '../kernel/cors.ts';
import { PUBLIC_DOCUMENT_METHODS, type PublicDocument, publicDocument, serveDocument } from '../kernel/document.ts';
import type { EdgeOptions } from '../kernel/handler.ts';
import { LOOPBACK_HOSTNAMES } from '../kernel/origin.ts';
import { HttpProblem, methodNotAllowed, PROBLEM_ERRORS, problemResponse } from '../kernel/problem.ts';
import { contentDigest } from './content-digest.ts';
import { DIRECTORY_MAX_AGE_SECONDS, type SigningKeySet } from './keys.ts';
import { messageSigner, SIGNATURE_ALGORITHM } from './sign.ts';

export const DIRECTORY_MEDIA_TYPE = 'application/http-message-signatures-directory+json';
export const DIRECTORY_SIGNATURE_TAG = 'http-message-signatures-directory';
/**
 * How long a directory signature asserts the binding. The draft advises lifetimes well beyond any
 * republication interval; a key's own `exp` ends it sooner.
 */
export const DIRECTORY_SIGNATURE_LIFETIME_SECONDS = 86_400;

const COVERED = [component('@authority', { req: true }), 'content-digest'];
/** A public document whose proof browser-based verifiers need to read too, not only the body. */
const DIRECTORY_CORS: CorsPolicy = {
  ...PUBLIC_DOCUMENT_CORS,
  exposeHeaders: [...(PUBLIC_DOCUMENT_CORS.exposeHeaders ?? []), 'Content-Digest', 'Signature', 'Signature-Input'],
};

/** The edge of the directory: a public document with its proof readable cross-origin; a failure (keys unreadable) is a logged 500. */
export const SIGNATURES_DIRECTORY_EDGE: EdgeOptions = { methods: ['GET'], cors: DIRECTORY_CORS, errors: PROBLEM_ERRORS };

export interface DirectoryDeps {
  keys: () => Promise<SigningKeySet>;
  now: () => number;
  /** The site's configured origin (the build's): its host is signed for. */
  siteOrigin: string;
  /** Other hosts that are this site's (on Netlify: `<name>.netlify.app` and its deploy URLs); lower-case `host[:port]`. */
  isOwnHost?: (host: string) => boolean;
}

/** Bodies change only with a rotation: keep the hashed document per body, a few at most. */
const documents = new Map<string, { doc: PublicDocument; digest: string }>();

async function directoryDocument(keys: SigningKeySet): Promise<{ doc: PublicDocument; digest: string }> {
  const body = JSON.stringify({ keys: keys.published }, null, 2);
  let found = documents.get(body);
  if (!found) {
    found = { doc: await publicDocument(body, DIRECTORY_MEDIA_TYPE), digest: await contentDigest(body) };
    if (documents.size > 8) documents.clear();
    documents.set(body, found);
  }
  return found;
}

/**
 * The URL the client asked for: the request's URL with the authority of its `Host` header, which
 * RFC 9421 §2.2.3 names as `@authority` (RFC 9110 §7.2). A runtime that rebuilds the URL from its
 * own origin (the local runtime answers `127.0.0.1:<port>` as `localhost:<port>`) and a reverse
 * proxy that forwards the client's `Host` both keep it there; without one, the URL's authority.
 */
export function requestedUrl(req: Request): string {
  const url = new URL(req.url);
  const host = req.headers.get('host')?.trim();
  if (!host) return url.href;
  try {
    const asked = new URL(`${url.protocol}//${host}`);
    // Only an authority: anything else in the field (a path, credentials) is not a Host value, so it is ignored.
    // (A new URL rather than the host setter, which keeps the old port when the new host names none.)
    if (asked.host === host.toLowerCase() && asked.username === '' && asked.pathname === '/')
      return `${asked.origin}${url.pathname}${url.search}`;
  } catch {
    // not an authority: keep the URL's own
  }
  return url.href;
}

/**
 * Whether `authority` (a lower-case `host[:port]`, as {@link requestedUrl} yields it) is one of the site's own: the
 * configured origin's, one `isOwnHost` names, or, when the runtime built `req.url` on a loopback host (the local
 * runtime, `npm start`: Netlify never serves one), any loopback name of that port.
 */
export function isSiteAuthority(authority: string, req: Request, siteOrigin: string, isOwnHost?: (host: string) => boolean): boolean {
  const site = new URL(siteOrigin);
  const asked = new URL(`${site.protocol}//${authority}`);
  if (asked.host === site.host || isOwnHost?.(asked.host)) return true;
  const running = new URL(req.url);
  return LOOPBACK_HOSTNAMES.includes(running.hostname) && LOOPBACK_HOSTNAMES.includes(asked.hostname) && asked.port === running.port;
}

/** The 421 (RFC 9110 §15.5.20) for a directory asked for under a host that is not the site's. */
function misdirected(authority: string, directoryUrl: string): HttpProblem {
  return new HttpProblem(
    421,
    'Misdirected Request',
    `This key directory is signed only for the site's own host, not ${authority}: fetch ${directoryUrl}.`,
  );
}

/** `Signature-Input` and `Signature` for the response to `req`: one member per published key (`binding0`, `binding1`, …). */
export async function directorySignatures(
  req: Request,
  digest: string,
  keys: SigningKeySet,
  nowMs: number,
): Promise<{ signatureInput: string; signature: string }> {
  const request = { kind: 'request' as const, method: req.method, targetUri: requestedUrl(req), fields: [] };
  const message = { kind: 'response' as const, status: 200, fields: [{ name: 'content-digest', value: digest }], request };
  const nowSeconds = Math.floor(nowMs / 1000);
  const members = await Promise.all(
    keys.signers.map((signer, i) => {
      const keyExp = keys.published[i]!.exp;
      const expiresSeconds = Math.min(nowSeconds + DIRECTORY_SIGNATURE_LIFETIME_SECONDS, keyExp ?? Number.POSITIVE_INFINITY);
      return createSignature(message, {
        label: `binding${i}`,
        signer: messageSigner(signer),
        components: COVERED,
        parameters: {
          created: nowSeconds,
          keyid: signer.keyid,
          alg: SIGNATURE_ALGORITHM,
          expires: expiresSeconds,
          tag: DIRECTORY_SIGNATURE_TAG,
        },
      });
    }),
  );
  const headers = members.reduce((signed, member) => appendSignature(signed, member), new Headers());
  return { signatureInput: headers.get('signature-input') ?? '', signature: headers.get('signature') ?? '' };
}

/**
 * Answers GET/HEAD with the signed directory (or a signed 304: the new signature replaces the
 * cached one, and `Content-Digest` still matches the cached body), else 405 (OPTIONS is the edge's).
 */
export async function handleSignaturesDirectory(req: Request, deps: DirectoryDeps): Promise<Response> {
  const pathname = new URL(req.url).pathname;
  const notAllowed = (): Response => problemResponse(methodNotAllowed(PUBLIC_DOCUMENT_METHODS), pathname);
  if (req.method !== 'GET') return notAllowed();
  const authority = new URL(requestedUrl(req)).host;
  if (!isSiteAuthority(authority, req, deps.siteOrigin, deps.isOwnHost))
    return problemResponse(misdirected(authority, `${new URL(deps.siteOrigin).origin}${pathname}`), pathname);
  const keys = await deps.keys();
  const { doc, digest } = await directoryDocument(keys);
  const res = serveDocument(req, doc, { maxAgeSeconds: DIRECTORY_MAX_AGE_SECONDS, methodNotAllowed: notAllowed });
  const { signatureInput, signature } = await directorySignatures(req, digest, keys, deps.now());
  res.headers.set('content-digest', digest);
  res.headers.set('signature-input', signatureInput);
  res.headers.set('signature', signature);
  return res;
}
