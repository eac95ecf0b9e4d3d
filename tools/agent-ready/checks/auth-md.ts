/**
 * authMd check: agentic registration as the scanner sees it (WorkOS auth.md v0.1): `/auth.md`
 * with an `auth.md` H1, protected resource metadata naming an authorization server, and the
 * `agent_auth` block in the origin's RFC 8414 metadata.
 * @module
 */
import { get, getJsonDocument, isSecureUrl, looksLikeHtml, mediaType, problemWith, sameOrigin, summary } from '../http.ts';
import { AS_METADATA_PATH, PRM_PATH } from './oauth.ts';
import { type CheckContext, fail, pass, type Verdict } from '../types.ts';

export const AUTH_MD_PATH = '/auth.md';
export const AUTH_MD_ACCEPT = 'text/markdown, text/plain, */*';

/**
 * True when the markdown has an ATX H1 whose text contains "auth.md", outside fenced code blocks
 * (an H2, a setext heading or a heading inside ``` does not count, as on the scanner).
 */
export function hasAuthMdHeading(markdown: string): boolean {
  let fence: string | null = null;
  for (const line of markdown.split(/\r?\n/)) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker) {
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      continue;
    }
    if (fence === null && /^ {0,3}#[ \t]+.*auth\.md/i.test(line)) return true;
  }
  return false;
}

/**
 * The `agent_auth` block with the WorkOS v0.1 names the scanner validates: `skill` pointing at
 * this origin's /auth.md, `register_uri` and `claim_uri`, a non-empty `identity_types_supported`,
 * and per identity type an object with a non-empty `credential_types_supported`.
 */
export function agentAuthProblem(agentAuth: unknown, ctx: CheckContext): string | null {
  if (!agentAuth || typeof agentAuth !== 'object' || Array.isArray(agentAuth))
    return 'Authorization Server metadata has no agent_auth block';
  const block = agentAuth as Record<string, unknown>;
  if (!isSecureUrl(block.skill)) return 'agent_auth.skill is not an absolute https URL';
  if (!sameOrigin(ctx, block.skill) || new URL(block.skill).pathname !== AUTH_MD_PATH)
    return `agent_auth.skill is ${block.skill}, not this origin's ${AUTH_MD_PATH}`;
  for (const key of ['register_uri', 'claim_uri']) {
    if (!isSecureUrl(block[key])) return `agent_auth.${key} is missing or not an absolute https URL`;
  }
  const types = block.identity_types_supported;
  if (!Array.isArray(types) || types.length === 0 || !types.every((t) => typeof t === 'string'))
    return 'agent_auth.identity_types_supported is missing or empty';
  for (const type of types as string[]) {
    const details = block[type] as Record<string, unknown> | undefined;
    const credentials = details && typeof details === 'object' ? details.credential_types_supported : undefined;
    if (!Array.isArray(credentials) || credentials.length === 0) return `agent_auth.${type}.credential_types_supported is missing or empty`;
  }
  return null;
}

const FIX =
  'Serve /auth.md (text/markdown) with an H1 "# auth.md", list your issuer in the protected resource metadata\'s authorization_servers, and add an agent_auth block (skill, register_uri, claim_uri, identity_types_supported, <type>.credential_types_supported) to /.well-known/oauth-authorization-server.';

/**
 * authMd: `/auth.md` answers 200 `text/markdown` (the scanner accepts "markdown"; RFC 7763's type
 * is required here, the stricter reading) with the H1; the root PRM lists ≥ 1 authorization
 * server; the origin's AS metadata carries a valid `agent_auth`.
 */
export async function checkAuthMd(ctx: CheckContext): Promise<Verdict> {
  const res = await get(ctx, AUTH_MD_PATH, { accept: AUTH_MD_ACCEPT });
  const problem = problemWith(ctx, res, 'text');
  if (problem) return fail(problem, FIX);
  if (mediaType(res) !== 'text/markdown') return fail(`${summary(ctx, res)}: expected text/markdown`, FIX);
  if (looksLikeHtml(res.text)) return fail('/auth.md is an HTML document', FIX);
  if (!hasAuthMdHeading(res.text)) return fail('/auth.md is missing the expected Auth.md heading (an H1 containing "auth.md")', FIX);

  const prm = await getJsonDocument(ctx, PRM_PATH);
  if (!('doc' in prm)) return fail(`OAuth Protected Resource Metadata was not found (${prm.problem})`, FIX);
  const servers = prm.doc.authorization_servers;
  if (!Array.isArray(servers) || servers.length === 0) return fail(`${PRM_PATH} lists no authorization_servers`, FIX);

  const as = await getJsonDocument(ctx, AS_METADATA_PATH);
  if (!('doc' in as)) return fail(`agent_auth metadata was not found (${as.problem})`, FIX);
  const bad = agentAuthProblem(as.doc.agent_auth, ctx);
  if (bad) return fail(bad, FIX);
  const types = (as.doc.agent_auth as { identity_types_supported: string[] }).identity_types_supported;
  return pass(`Auth.md support detected (${types.join(', ')})`);
}
