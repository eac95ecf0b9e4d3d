/**
 * `/auth.md`: the agent-facing guide to authenticating with this site (auth.md convention). It is
 * generated at build from the same config as the metadata documents, so every URL, scope, limit
 * and lifetime it states is the one the server enforces.
 * @module
 */
import { DEFAULT_READ_RULES, RATE_LIMITED_CODE } from '../kernel/read-limit.ts';
import { EXPORT_SCOPE } from '../agent-tools/export-article-index.ts';
import { entryPointList } from './entry-points.ts';
import { AGENT_DIRECTORY_REFETCH_INTERVAL_SECONDS } from '../web-bot-auth/verify.ts';
import { EXPORT_RATE_LIMIT } from '../mcp/auth.ts';
import { absoluteUrl, paths } from '../kernel/paths.ts';
import { CLAIM_START_RATE_LIMIT } from '../oauth/endpoints/claim.ts';
import {
  CLIENT_METADATA_FAILURE_CACHE_SECONDS,
  CLIENT_METADATA_FETCHES_PER_HOST,
  CLIENT_METADATA_FETCHES_PER_NETWORK,
  CLIENT_METADATA_MAX_BYTES,
  CLIENT_METADATA_MAX_CACHE_SECONDS,
  CLIENT_METADATA_TIMEOUT_MS,
} from '../oauth/grants/client-metadata-document.ts';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  AUTHORIZATION_CODE_TTL_SECONDS,
  CLAIM_ATTEMPT_TTL_SECONDS,
  CLAIM_POLL_INTERVAL_SECONDS,
  CLAIMED_CLIENT_TTL_SECONDS,
  CLIENT_ID_PREFIX,
  CLOCK_SKEW_SECONDS,
  type OAuthConfig,
  OAUTH_PATHS,
  REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS,
  REFRESH_TOKEN_IDLE_TTL_SECONDS,
  REGISTRATION_LIFETIME_TEXT,
  SCOPE_DESCRIPTIONS,
  SCOPES,
  UNCLAIMED_CLIENT_TTL_SECONDS,
} from '../oauth/config.ts';
import { REGISTRATION_DAILY_LIMIT, REGISTRATION_GLOBAL_DAILY_LIMIT, REGISTRATION_RATE_LIMIT } from '../oauth/endpoints/register.ts';

const days = (seconds: number): number => Math.round(seconds / 86400);
const READ = DEFAULT_READ_RULES;

/**
 * The RFC 7591 registration an agent sends for client_credentials with every scope, as an HTTP example
 * (auth.md, the get-export-token skill).
 */
export function registrationRequestExample(host: string): string {
  const body = { client_name: 'my-agent', grant_types: ['client_credentials'], scope: SCOPES.join(' ') };
  return [
    '```http',
    `POST ${OAUTH_PATHS.register} HTTP/1.1`,
    `Host: ${host}`,
    'Content-Type: application/json',
    '',
    JSON.stringify(body),
    '```',
  ].join('\n');
}

/** The contract's token request for client_credentials: the secret in the form body (auth.md, the get-export-token skill). */
export function clientCredentialsTokenExample(host: string, scope: string = EXPORT_SCOPE): string {
  const body = `grant_type=client_credentials&client_id=${CLIENT_ID_PREFIX}Xy…&client_secret=…&scope=${encodeURIComponent(scope)}`;
  return [
    '```http',
    `POST ${OAUTH_PATHS.token} HTTP/1.1`,
    `Host: ${host}`,
    'Content-Type: application/x-www-form-urlencoded',
    '',
    body,
    '```',
  ].join('\n');
}

export function renderAuthMd(config: OAuthConfig, siteName: string): string {
  const o = config.issuer;
  const host = new URL(o).host;
  const e = config.endpoints;
  const asMeta = absoluteUrl(o, OAUTH_PATHS.asMetadata);
  const prm = absoluteUrl(o, OAUTH_PATHS.prmMcp);
  const mcp = config.mcpResource;
  const scopeRows = SCOPES.map((s) => `| \`${s}\` | ${SCOPE_DESCRIPTIONS[s]} |`).join('\n');
  return `# auth.md: agentic registration and authentication for ${siteName}

This file is for AI agents. It explains how to get and use credentials for **${host}**, with the
exact requests this service accepts. The authorization server (issuer \`${o}\`) and the protected
resource (the MCP server \`${mcp}\`) are on the same host.

- No account and no human identity are needed: registration is **anonymous** (\`identity_types_supported: ["anonymous"]\`).
- Everything public (articles, search, the MCP tools other than \`export_article_index\`) works **without any credential**. You need a token only for \`export_article_index\`.
- Credentials: a \`client_secret\` from registration, exchanged for a short-lived \`bearer_token\` (an RS256 JWT access token).
- The A2A agent (\`${absoluteUrl(o, paths.a2a)}\`, agent card \`${absoluteUrl(o, paths.agentCard)}\`) is public: every skill
  reads, but \`submit_feedback\`, which stores the feedback it is sent. Its card declares no security scheme and it takes no token. Send \`A2A-Version: 1.0\`; the export stays on MCP.

## Scopes

| Scope | What it allows |
|---|---|
${scopeRows}

An anonymous registration may receive both scopes (self-service export is part of this service's
contract). Accountability comes from per-client limits, expiry and revocation.

## 1. Discover

Call the protected tool without a token, or read the metadata directly:

1. \`POST ${mcp}\` (\`tools/call\` of \`export_article_index\`) answers \`401\` with
   \`WWW-Authenticate: Bearer resource_metadata="${prm}", scope="content:export"\`.
2. \`GET ${prm}\` (RFC 9728) names the resource \`${mcp}\` and the authorization server \`${o}\`.
3. \`GET ${asMeta}\` (RFC 8414) lists every endpoint. Its \`agent_auth\` block:

| Field | Value | Meaning |
|---|---|---|
| \`skill\` | \`${absoluteUrl(o, OAUTH_PATHS.authMd)}\` | this document |
| \`register_uri\` / \`identity_endpoint\` | \`${e.register}\` | where to register (step 3) |
| \`claim_uri\` / \`claim_endpoint\` | \`${e.claim}\` | where to claim (step 4) |
| \`revocation_uri\` | \`${e.revoke}\` | where to revoke (step 8) |
| \`identity_types_supported\` | \`["anonymous"]\` | no identity is asserted |
| \`anonymous.credential_types_supported\` | \`["client_secret", "bearer_token"]\` | what you receive |

The signing keys are at \`${e.jwks}\`.

## 2. Pick a method

- **You act for yourself (machine to machine):** register a confidential client with
  \`grant_types: ["client_credentials"]\` and use the client_credentials grant. This is the usual choice.
- **A person in a browser should approve access:** register with
  \`grant_types: ["authorization_code", "refresh_token"]\`, a \`redirect_uris\` entry (https, or http on
  \`127.0.0.1\` / \`[::1]\` with any port, or \`localhost\` with the exact port) and
  \`token_endpoint_auth_method: "none"\` (public client), then use authorization code with PKCE S256.
  This is what MCP clients (the MCP SDKs, mcp-remote, the Inspector) send, and it works as they send it.
- **You publish a Client ID Metadata Document** (MCP 2026-07-28, draft-ietf-oauth-client-id-metadata-document):
  skip registration and use the document's https URL as \`client_id\` in the authorization request. The
  document must be JSON with \`client_id\` equal to its URL, \`redirect_uris\`, optionally \`client_name\`,
  \`grant_types\` (\`authorization_code\`, \`refresh_token\`) and \`scope\`; no secret (\`token_endpoint_auth_method\`
  \`none\`). It is fetched over https from a public address (no redirects, at most ${CLIENT_METADATA_MAX_BYTES} bytes,
  ${CLIENT_METADATA_TIMEOUT_MS / 1000} s) and cached as its \`Cache-Control\` allows, up to ${CLIENT_METADATA_MAX_CACHE_SECONDS / 3600} hours. It must not be on
  this site's own hosts. At most ${CLIENT_METADATA_FETCHES_PER_NETWORK.limit} documents are fetched per client network and ${CLIENT_METADATA_FETCHES_PER_HOST.limit} per document host in
  ${CLIENT_METADATA_FETCHES_PER_NETWORK.windowSeconds / 60} minutes (\`429 rate_limited\`). A document that cannot be used is not fetched again for ${CLIENT_METADATA_FAILURE_CACHE_SECONDS} s, and the
  error says only that it could not be fetched, is not a JSON document, or does not name its own URL, with a
  reference the site's operator can look up; once the document names itself, a bad field is named.

## 3. Register

${registrationRequestExample(host)}

\`\`\`http
HTTP/1.1 201 Created
Content-Type: application/json; charset=utf-8
Cache-Control: no-store

{
  "client_id": "${CLIENT_ID_PREFIX}Xy…",
  "client_secret": "…",
  "client_secret_expires_at": 0,
  "client_id_issued_at": 1790000000,
  "client_name": "my-agent",
  "grant_types": ["client_credentials"],
  "response_types": [],
  "redirect_uris": [],
  "token_endpoint_auth_method": "client_secret_basic",
  "scope": "${SCOPES.join(' ')}",
  "registration_type": "anonymous",
  "claim_token": "clm_…",
  "claim_token_expires": 1792592000,
  "claim_url": "${e.claim}",
  "pre_claim_scopes": ${JSON.stringify([...SCOPES])},
  "post_claim_scopes": ${JSON.stringify([...SCOPES])}
}
\`\`\`

- The \`client_secret\` and the \`claim_token\` are shown **once**; the server keeps only their SHA-256 digests.
- \`client_id\` always starts with \`${CLIENT_ID_PREFIX}\`. Omitted \`token_endpoint_auth_method\` is recorded as \`client_secret_basic\`
  (the RFC 7591 default), but every confidential client may send its secret **either** with HTTP Basic **or** as
  \`client_secret\` in the form body, whatever it registered. \`none\` registers a public client (no secret).
- Omitted \`scope\` means all scopes; unknown scopes are left out (the response's \`scope\` says what you got), and
  a registration naming no known scope is refused.
- \`grant_types\` may hold \`client_credentials\`, \`authorization_code\` and \`refresh_token\` (the last only with
  \`authorization_code\`). \`application_type\`, \`client_uri\`, \`logo_uri\`, \`software_id\` and \`software_version\`
  are stored and echoed back, never shown as verified; other metadata is ignored (RFC 7591 §2).
- \`client_name\` must not contain control, bidirectional-formatting or invisible characters (zero-width, Unicode tag and line-separator
  characters included): they could disguise the name on the consent page or hide from a person text that a model reads.
- At most ${REGISTRATION_RATE_LIMIT.limit} registrations an hour and ${REGISTRATION_DAILY_LIMIT.limit} a day per client network, an IPv4 address or
  an IPv6 /64 (\`429 rate_limited\` with \`Retry-After\`), and ${REGISTRATION_GLOBAL_DAILY_LIMIT.limit} a day for the whole site (\`503
  temporarily_unavailable\` with \`Retry-After\`; existing registrations keep working).
- ${REGISTRATION_LIFETIME_TEXT}

## 4. Claim (optional)

Claiming asks a person to confirm the registration, so it lasts ${days(CLAIMED_CLIENT_TTL_SECONDS)} days (not ${days(UNCLAIMED_CLIENT_TTL_SECONDS)}) without use. It does not change scopes.

\`\`\`http
POST ${OAUTH_PATHS.claim} HTTP/1.1
Host: ${host}
Content-Type: application/json

{"claim_token": "clm_…"}
\`\`\`

\`\`\`json
{"status": "pending", "client_id": "${CLIENT_ID_PREFIX}Xy…", "claim_attempt_id": "cla_…", "user_code": "BCDF-GHJK",
 "verification_uri": "${e.claimVerify}", "verification_uri_complete": "${e.claimVerify}?user_code=BCDF-GHJK",
 "expires_in": ${CLAIM_ATTEMPT_TTL_SECONDS}, "interval": ${CLAIM_POLL_INTERVAL_SECONDS}}
\`\`\`

Show the person the \`user_code\` and the \`verification_uri\`. They open it, check the code and approve.
Then poll every \`interval\` seconds until the status is \`claimed\`:

\`\`\`http
POST ${OAUTH_PATHS.claim} HTTP/1.1
Host: ${host}
Content-Type: application/json

{"claim_attempt_id": "cla_…"}
\`\`\`

\`{"status": "pending", …}\` means keep polling; \`{"status": "claimed", "client_id": "…", "claimed_at": …}\` means done.
A new start replaces the previous attempt (its user code stops working). The claim token is spent once the claim is approved.
At most ${CLAIM_START_RATE_LIMIT.limit} claim starts per hour per client network.

## 5. Exchange: get an access token

Client credentials, with the secret in the form body:

${clientCredentialsTokenExample(host)}

or with HTTP Basic (\`client_id:client_secret\`, each form-urlencoded first, RFC 6749 §2.3.1); both work for every
confidential client:

\`\`\`http
POST ${OAUTH_PATHS.token} HTTP/1.1
Host: ${host}
Authorization: Basic base64(client_id:client_secret)
Content-Type: application/x-www-form-urlencoded

grant_type=client_credentials&scope=content%3Aexport&resource=${encodeURIComponent(mcp)}
\`\`\`

\`\`\`json
{"access_token": "eyJhbGciOiJSUzI1NiIsInR5cCI6ImF0K2p3dCIs…", "token_type": "Bearer", "expires_in": ${ACCESS_TOKEN_TTL_SECONDS}, "scope": "content:export"}
\`\`\`

- \`scope\` is optional (default: every registered scope). You get the requested scopes that your registration
  holds; the response's \`scope\` says which (RFC 6749 §3.3). Only when none is left is the answer \`invalid_scope\`.
- \`resource\` (RFC 8707) is optional; the only accepted value, and the default, is \`${mcp}\`.
- The token is an RS256 JWT (\`typ: at+jwt\`, RFC 9068) with \`iss\`, \`aud\`, \`sub\`, \`client_id\`, \`scope\`, \`jti\`, \`iat\`, \`exp\`;
  it lasts ${ACCESS_TOKEN_TTL_SECONDS} seconds. Clients of the client_credentials grant get no refresh token: ask for a new access token when it expires.
  A token whose \`iat\` lies more than ${CLOCK_SKEW_SECONDS} seconds in the future is refused.

Authorization code with PKCE (public client): send the person to

\`\`\`
${e.authorize}?response_type=code&client_id=…&redirect_uri=…&scope=content%3Aexport&state=…&code_challenge=…&code_challenge_method=S256
\`\`\`

They see a consent page and approve or deny. You receive \`?code=…&state=…&iss=${encodeURIComponent(o)}\` (check \`iss\`, RFC 9207)
or \`?error=access_denied&state=…&iss=…\`. Within ${AUTHORIZATION_CODE_TTL_SECONDS} seconds, redeem the code once:

\`\`\`http
POST ${OAUTH_PATHS.token} HTTP/1.1
Host: ${host}
Content-Type: application/x-www-form-urlencoded

grant_type=authorization_code&code=…&redirect_uri=…&code_verifier=…&client_id=…
\`\`\`

Only \`S256\` is accepted (\`plain\` is refused); the redirect URI must match exactly (a loopback IP literal may
change only its port, and must be spelled canonically: no userinfo, no dot-segments, no \`0x7f.1\`); a code used
twice fails and revokes every token issued from it. The consent page answers each request once: a second
Approve or Deny for the same page gets "already answered".

Clients registered for \`refresh_token\` also receive a \`refresh_token\` (\`rt_…\`). Exchange it for a new access token:

\`\`\`http
POST ${OAUTH_PATHS.token} HTTP/1.1
Host: ${host}
Content-Type: application/x-www-form-urlencoded

grant_type=refresh_token&refresh_token=rt_…&client_id=…
\`\`\`

- Every refresh returns a **new** refresh token; the old one is spent. Presenting a spent refresh token again
  revokes the whole grant (every access and refresh token from that consent, RFC 9700 §4.14.2): start again with a person.
- A refresh token is bound to its client, scope and resource. \`scope\` may narrow the grant, never widen it.
- It must be used within ${days(REFRESH_TOKEN_IDLE_TTL_SECONDS)} days (idle lifetime); however often you refresh, the grant ends
  ${days(REFRESH_TOKEN_ABSOLUTE_TTL_SECONDS)} days after the consent (absolute lifetime). The server keeps only its SHA-256 digest.

## 6. Use

\`\`\`http
POST /mcp HTTP/1.1
Host: ${host}
Authorization: Bearer eyJhbGciOiJSUzI1NiIs…
Content-Type: application/json
Accept: application/json, text/event-stream

{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "export_article_index", "arguments": {"limit": 50}}}
\`\`\`

Send the token only in the \`Authorization\` header (never in the URL). At most ${EXPORT_RATE_LIMIT.limit} export calls per client per hour.
Add \`"lang": "zh"\` or \`"en"\` to the arguments to export one language: a page may then be shorter than \`limit\`; go on while
\`next_cursor\` is present.

A browser-based client on another https origin may call \`/mcp\` with its token: a deployed site answers CORS for every origin
by default (AGENT_BROWSER_ORIGINS; no cookies or other ambient credentials are used, so nothing is granted that the token does not carry). robots.txt keeps
crawlers off the consent and claim approval pages only; every endpoint in this document is open to agents that honour it.

## 7. Errors

| Code | Where | HTTP | What to do |
|---|---|---|---|
| \`invalid_client_metadata\` | register | 400 | Fix the field named in \`error_description\`; do not retry unchanged. |
| \`invalid_redirect_uri\` | register | 400 | Use https, or http on a loopback IP, without a fragment. |
| \`rate_limited\` | register, claim | 429 | Wait for \`Retry-After\` seconds. |
| \`invalid_client\` | token, revoke | 401 | Wrong or expired credentials (a public client sending a secret, a confidential one sending none): register again if expired. |
| \`invalid_grant\` | token | 400 | Code or refresh token unknown, expired, already used, for another client, or verifier/redirect mismatch: start the authorization again. |
| \`unauthorized_client\` | token | 400 | The client is not registered for this grant type. |
| \`invalid_scope\` | token, authorize | 400 | None of the requested scopes is registered: ask for one you registered. |
| \`invalid_target\` | token, authorize | 400 | Omit \`resource\` or send \`${mcp}\`. |
| \`unsupported_grant_type\` | token | 400 | Use \`client_credentials\`, \`authorization_code\` or \`refresh_token\`. |
| \`invalid_request\` | all | 400 | A parameter is missing, repeated or malformed: read \`error_description\`. |
| \`invalid_claim_token\` | claim | 400 | Unknown or spent claim token, or the registration expired. |
| \`expired_claim_token\` | claim | 410 | The claim token is too old; the registration can still be used until it expires. |
| \`already_claimed\` | claim | 409 | Nothing to do: the registration is claimed. |
| \`invalid_claim_attempt\` / \`expired_claim_attempt\` | claim | 400 / 410 | Start a new claim with the claim token. |
| \`access_denied\` | claim, authorize | 403 / redirect | The person denied it; do not retry without asking them. |
| \`slow_down\` | claim | 400 | Poll less often (every \`interval\` seconds). |
| \`invalid_token\` | \`/mcp\` | 401 | Expired, revoked or not for this resource: get a new token (step 5); if that fails, restart discovery. |
| \`insufficient_scope\` | \`/mcp\` | 403 | Get a token with the scope named in \`WWW-Authenticate\`. |

Retry rules: on 5xx back off exponentially; on 4xx do not repeat the same request; on a 401 with a credential that worked before, restart from discovery.

## 8. Revocation

Revoke a token you no longer need (RFC 7009), authenticating as when you got it:

\`\`\`http
POST ${OAUTH_PATHS.revoke} HTTP/1.1
Host: ${host}
Authorization: Basic base64(client_id:client_secret)
Content-Type: application/x-www-form-urlencoded

token=eyJhbGciOiJSUzI1NiIs…&token_type_hint=access_token
\`\`\`

The answer is \`200 {}\`, also for unknown tokens. A revoked token is refused everywhere from then on.
Revoking a refresh token ends its whole grant, the access tokens issued under it included. \`token_type_hint\`
(\`access_token\` or \`refresh_token\`) is optional and only a hint; an unknown value is ignored.
To stop using a registration altogether, stop using it: an unclaimed one disappears ${days(UNCLAIMED_CLIENT_TTL_SECONDS)} days after its last use,
a claimed one ${days(CLAIMED_CLIENT_TTL_SECONDS)} days after.

## Read limits

The public read endpoints (\`GET /api/search\`, \`POST /mcp\`, \`POST /a2a\`) need no token. Each client network (an IPv4
address, an IPv6 /64) may send ${READ.anonymous.burst} requests at once, then ${READ.anonymous.perSecond} a second, to each of them; reading at 1
request a second never meets the limit. The limit is kept by each serving instance: it stops floods, it does not meter. Past it the answer is \`429\` with \`Retry-After\` (an RFC 9457 problem on \`/api/*\`, JSON-RPC
error \`${RATE_LIMITED_CODE}\` on \`/mcp\` and \`/a2a\`, \`retry_after\` in its data).

**Sign your requests for more.** An agent that signs with Web Bot Auth (RFC 9421 HTTP Message Signatures, the IETF
webbotauth draft: \`Signature-Agent: sig1="<your agent's https origin>"\`, a signature \`sig1\` covering \`@authority\` and
\`"signature-agent";key="sig1"\` (or the whole \`"signature-agent"\` field, as Cloudflare's \`web-bot-auth\` package signs by default) with \`created\`, \`expires\`, \`nonce\`, \`keyid\` and \`tag="web-bot-auth"\`, its Ed25519
key published at \`<your agent's https origin>/.well-known/http-message-signatures-directory\`) is counted by its key
directory, with ${READ.verified.burst} requests at once, then ${READ.verified.perSecond} a second, from wherever it runs; one network gets at most that
much of verified reading, however many directories it signs for (its unsigned requests keep the network's own allowance). A
signature that does not verify is ignored: the request is served as unsigned. Your directory is kept as its \`Cache-Control\` says
(a minute to a day); when you rotate your key, the first request signed with a key the kept copy lacks fetches it again
(at most once every ${AGENT_DIRECTORY_REFETCH_INTERVAL_SECONDS} s per directory), so publish the new key before you sign with it. These are the defaults; the 429's
message states the allowance in force.

## Every entry point for agents

${entryPointList(o)}
`;
}
