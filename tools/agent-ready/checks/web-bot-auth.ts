/**
 * webBotAuth check: a Web Bot Auth key directory. It never counts against a site (the scanner
 * reports `neutral` unless a valid directory exists), but it is one of the Level 5 requirements.
 * @module
 */
import { getJsonDocument } from '../http.ts';
import { type CheckContext, neutral, pass, type Verdict } from '../types.ts';

export const WEB_BOT_AUTH_PATH = '/.well-known/http-message-signatures-directory';

const FIX = 'Only if your own bots sign their requests (Web Bot Auth): publish their public keys as {"keys":[…]} at /.well-known/http-message-signatures-directory.';

/** webBotAuth: a JWKS with ≥ 1 key carrying `kty` → pass; anything else → neutral. */
export async function checkWebBotAuth(ctx: CheckContext): Promise<Verdict> {
  const found = await getJsonDocument(ctx, WEB_BOT_AUTH_PATH, 'application/http-message-signatures-directory+json, application/json');
  if (!('doc' in found)) return neutral(`no signature directory (${found.problem}); only sites that sign their own bots need one`, FIX);
  const keys = found.doc.keys;
  if (!Array.isArray(keys) || keys.length === 0 || !keys.every((k) => k && typeof k === 'object' && typeof (k as { kty?: unknown }).kty === 'string')) {
    return neutral(`${WEB_BOT_AUTH_PATH} is not a JWKS with keys`, FIX);
  }
  return pass(`${WEB_BOT_AUTH_PATH}: ${keys.length} key(s)`);
}
