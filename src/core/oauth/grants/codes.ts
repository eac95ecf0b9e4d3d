/**
 * Authorization codes (RFC 6749 §4.1, RFC 7636, RFC 9700 §4.5): 256-bit random, single use, valid
 * for {@link AUTHORIZATION_CODE_TTL_SECONDS}, stored only as a SHA-256 digest and bound to the
 * client, redirect URI, PKCE challenge, scope and resource of the authorization request.
 *
 * Single use is a create-only marker (`code-used/<digest>`, Blobs `onlyIfNew`): of any number of
 * concurrent redemptions exactly one creates it, naming the grant it is about to create. Every
 * later (or concurrent) redemption of the same code is a replay: it fails, and the grant, with every
 * access and refresh token issued under it, is revoked (§4.1.2; see grants.ts).
 * @module
 */
import type { Store } from '../../kernel/store.ts';
import { setExpiring } from '../../kernel/expiry.ts';
import { ORPHAN_GRACE_SECONDS } from './sweep.ts';
import { ACCESS_TOKEN_TTL_SECONDS, AUTHORIZATION_CODE_TTL_SECONDS, CLOCK_SKEW_SECONDS } from '../config.ts';
import type { ClientRecord } from './clients.ts';
import { OAuthError } from '../errors.ts';
import { randomSecret, sha256Base64url, sha256Hex, timingSafeEqual } from '../../kernel/crypto.ts';
import { newGrantId, revokeGrant } from './grants.ts';

/** What an approved authorization request grants, as stored under `code/<sha256(code)>`. */
export interface CodeRecord {
  client_id: string;
  redirect_uri: string;
  /** Whether the authorization request named redirect_uri (then the token request must repeat it, RFC 6749 §4.1.3). */
  redirect_uri_in_request: boolean;
  code_challenge: string;
  scope: string;
  resource: string;
  /** The anonymous subject of this grant (no person is identified; see auth.md). */
  subject: string;
  issued_at: number;
  expires_at: number;
}

/** The single-use marker, `code-used/<sha256(code)>`: the grant the winning redemption creates. */
export interface CodeUseRecord {
  grant_id: string;
  /** Kept while a replay could still revoke the first redemption's access token (then the sweep removes it). */
  expires_at: number;
}

const codeKey = (digest: string): string => `code/${digest}`;
const useKey = (digest: string): string => `code-used/${digest}`;
/** RFC 7636 §4.1: 43-128 unreserved characters. */
const VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;

/** Creates a code for an approved request and stores its digest. */
export async function issueCode(store: Store, grant: Omit<CodeRecord, 'issued_at' | 'expires_at'>, nowSeconds: number): Promise<string> {
  const code = randomSecret(32);
  const record: CodeRecord = { ...grant, issued_at: nowSeconds, expires_at: nowSeconds + AUTHORIZATION_CODE_TTL_SECONDS };
  const written = await setExpiring(store, codeKey(await sha256Hex(code)), record, record.expires_at + ORPHAN_GRACE_SECONDS, {
    onlyIfNew: true,
  });
  if (!written.modified) throw new OAuthError('server_error', 'Could not store the authorization code; try again.', { status: 500 });
  return code;
}

/**
 * Redeems a code for `client` at the token endpoint. Every check runs before the code is consumed,
 * so a request with the wrong client, redirect URI or verifier does not burn it.
 */
export async function redeemCode(
  form: Map<string, string>,
  client: ClientRecord,
  deps: { grants: Store; nowSeconds: () => number },
): Promise<{ grantId: string; scope: string; resource: string; subject: string }> {
  const code = form.get('code');
  if (!code) throw new OAuthError('invalid_request', 'code is required.');
  const verifier = form.get('code_verifier');
  if (verifier === undefined) throw new OAuthError('invalid_request', 'code_verifier is required: this server requires PKCE (S256).');
  if (!VERIFIER_PATTERN.test(verifier))
    throw new OAuthError('invalid_request', 'code_verifier must be 43-128 characters of [A-Za-z0-9-._~] (RFC 7636 §4.1).');

  const digest = await sha256Hex(code);
  const found = await deps.grants.get<CodeRecord>(codeKey(digest));
  const now = deps.nowSeconds();
  if (!found) throw new OAuthError('invalid_grant', 'The authorization code is not valid.');
  const grant = found.value;
  if (grant.expires_at <= now)
    throw new OAuthError('invalid_grant', `The authorization code has expired (codes are valid for ${AUTHORIZATION_CODE_TTL_SECONDS} s).`);
  if (grant.client_id !== client.client_id) throw new OAuthError('invalid_grant', 'The authorization code was issued to another client.');
  const redirectUri = form.get('redirect_uri');
  if ((grant.redirect_uri_in_request || redirectUri !== undefined) && redirectUri !== grant.redirect_uri) {
    throw new OAuthError('invalid_grant', 'redirect_uri does not match the one of the authorization request.');
  }
  if (!timingSafeEqual(await sha256Base64url(verifier), grant.code_challenge))
    throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge.');
  const resource = form.get('resource');
  if (resource !== undefined && resource !== grant.resource)
    throw new OAuthError('invalid_target', `resource must be the one authorized: ${grant.resource}.`);

  const grantId = newGrantId();
  const keepUntil = grant.expires_at + ACCESS_TOKEN_TTL_SECONDS + CLOCK_SKEW_SECONDS;
  const first = await setExpiring(
    deps.grants,
    useKey(digest),
    { grant_id: grantId, expires_at: keepUntil } satisfies CodeUseRecord,
    keepUntil,
    {
      onlyIfNew: true,
    },
  );
  if (!first.modified) {
    // Replay: revoke the grant the winner created (or is creating: a tombstone makes its creation fail).
    const use = await deps.grants.get<CodeUseRecord>(useKey(digest));
    if (use?.value.grant_id) await revokeGrant(deps.grants, use.value.grant_id, now);
    throw new OAuthError('invalid_grant', 'The authorization code was already used; the tokens issued from it are revoked.');
  }
  return { grantId, scope: grant.scope, resource: grant.resource, subject: grant.subject };
}
