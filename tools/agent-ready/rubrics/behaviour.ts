/**
 * Behaviour (this checker's own rubric, `--behaviour`): not whether the files exist, but whether an agent can
 * use what they advertise. An MCP session and a read-only tool call in every protocol era the server card
 * claims; an OAuth client registration, a token and the revocation of both, only when the site advertises
 * self-service registration; an A2A `SendMessage` when an agent card exists; the markdown twins of
 * sampled sitemap pages. Every check lists what it sent and what came back.
 *
 * Nothing is written to a site that does not advertise self-service registration: without
 * `registration_endpoint` (RFC 7591) or an anonymous `agent_auth` identity the OAuth checks send nothing.
 * The checker only calls tools annotated `readOnlyHint: true`, and revokes what it registered.
 * @module
 */
import { builtForOtherOrigin, get, isSecureUrl, otherOriginOf, outcome, parseJsonObject, sameOrigin, send, summary } from '../http.ts';
import { AGENT_CARD_PATH } from '../checks/a2a-agent-card.ts';
import { SERVER_CARD_PATHS } from '../checks/mcp-server-card.ts';
import { AS_METADATA_PATH } from '../checks/oauth.ts';
import { gradePages, pageGrade } from '../pages.ts';
import { eraOf, evidenceLine, LATEST_LEGACY_MCP_VERSION, mcpCallTool, mcpSession, readRpc } from '../protocols/mcp.ts';
import { isMarkdown, memo, negotiatedMarkdown, shortUrl, twinOf } from '../site.ts';
import {
  type Check,
  type CheckContext,
  type CheckResult,
  fail,
  needsBehaviour,
  neutral,
  pass,
  type Rubric,
  type RubricSummary,
  type Verdict,
} from '../types.ts';
import { CHECKER_VERSION } from '../version.ts';

const README = 'README.md#behaviour';

/** The first server card that parses, with the path it was found at. */
async function serverCard(ctx: CheckContext): Promise<Record<string, unknown> | null> {
  return memo(ctx, 'server card', async () => {
    for (const path of SERVER_CARD_PATHS) {
      const res = await get(ctx, path, { accept: 'application/json' });
      const doc = res.status === 200 ? parseJsonObject(res) : null;
      if (doc && typeof doc === 'object') return doc;
    }
    return null;
  });
}

/** The endpoints a server card names, in the order tried: `transport.endpoint`, `endpoint`, `remotes[0].url`. */
function cardEndpoints(card: Record<string, unknown>): string[] {
  const remotes = Array.isArray(card.remotes) ? (card.remotes as { url?: unknown }[]) : [];
  const candidates = [(card.transport as { endpoint?: unknown } | undefined)?.endpoint, card.endpoint, remotes[0]?.url];
  return candidates.filter((c): c is string => typeof c === 'string');
}

/** The MCP endpoint a server card names (same-origin only), or null. */
export async function mcpEndpointOf(ctx: CheckContext): Promise<string | null> {
  const card = await serverCard(ctx);
  if (!card) return null;
  return cardEndpoints(card).find((c) => isSecureUrl(c) && sameOrigin(ctx, c)) ?? null;
}

/**
 * Why there is no MCP endpoint to exercise, as a neutral verdict: no server card, a card that names its endpoint on
 * another origin (a site built for that origin: `otherOrigin` says which), or a card that names none.
 */
async function noMcpEndpoint(ctx: CheckContext): Promise<Verdict> {
  const card = await serverCard(ctx);
  if (!card)
    return neutral(
      'no MCP server card: nothing to exercise',
      'Publish an MCP server card (/.well-known/mcp/server-card.json) if you run an MCP server.',
    );
  const named = cardEndpoints(card);
  const foreign = named.find((c) => otherOriginOf(ctx, c) !== null);
  if (foreign) {
    const origin = otherOriginOf(ctx, foreign)!;
    return neutral(
      `the MCP server card names ${foreign}, on ${builtForOtherOrigin(ctx, origin)} Not exercised (behaviour writes only to the scanned origin)`,
      `Name this origin's endpoint in the server card (${new URL(new URL(foreign).pathname, ctx.baseUrl).href}): build the site for the origin it is served at.`,
      { otherOrigin: origin },
    );
  }
  return neutral(
    named.length
      ? `the MCP server card names no usable endpoint (${named.join(', ')}: https, or http on loopback)`
      : 'the MCP server card names no endpoint (transport.endpoint, endpoint or remotes[].url)',
    "Name the MCP server's Streamable HTTP endpoint in the server card (remotes[].url).",
  );
}

/**
 * The revisions to exercise, one per era the card claims (`remotes[].supportedProtocolVersions`): the
 * newest handshake-era revision and 2026-07-28 when listed. A card that lists none gets the newest
 * handshake revision, which every current server speaks.
 */
export async function mcpVersionsOf(ctx: CheckContext): Promise<string[]> {
  const card = await serverCard(ctx);
  const remotes = Array.isArray(card?.remotes) ? (card!.remotes as { supportedProtocolVersions?: unknown }[]) : [];
  const claimed = remotes
    .flatMap((r) => (Array.isArray(r.supportedProtocolVersions) ? r.supportedProtocolVersions : []))
    .filter((v): v is string => typeof v === 'string');
  const legacy = claimed
    .filter((v) => eraOf(v) === 'legacy')
    .sort()
    .at(-1);
  const modern = claimed
    .filter((v) => eraOf(v) === 'modern')
    .sort()
    .at(-1);
  const versions = [legacy, modern].filter((v): v is string => !!v);
  return versions.length ? versions : [LATEST_LEGACY_MCP_VERSION];
}

async function checkMcpHandshake(ctx: CheckContext): Promise<Verdict> {
  const fix = 'Answer initialize (handshake era) and server/discover (2026-07-28) for every revision the server card lists.';
  if (!ctx.behaviour) return needsBehaviour(ctx, 'POSTs JSON-RPC to the MCP endpoint');
  const endpoint = await mcpEndpointOf(ctx);
  if (!endpoint) return noMcpEndpoint(ctx);
  const evidence: string[] = [];
  const ok: string[] = [];
  for (const version of await mcpVersionsOf(ctx)) {
    const session = await mcpSession(ctx, endpoint, version);
    evidence.push(`[${version}]`, ...session.evidence);
    if (session.problem) return fail(`${version}: ${session.problem}`, fix, { evidence });
    ok.push(`${version} (${session.serverName ?? 'unnamed'}, ${session.tools?.length ?? 0} tools)`);
  }
  return pass(`${shortUrl(ctx, endpoint)} answers ${ok.join(' and ')}`, { evidence });
}

async function checkMcpToolCall(ctx: CheckContext): Promise<Verdict> {
  const fix = 'Annotate read-only tools with readOnlyHint: true, and make each answer a valid tools/call with content and no isError.';
  if (!ctx.behaviour) return needsBehaviour(ctx, 'calls a read-only MCP tool');
  const endpoint = await mcpEndpointOf(ctx);
  if (!endpoint) return noMcpEndpoint(ctx);
  const evidence: string[] = [];
  const called: string[] = [];
  for (const version of await mcpVersionsOf(ctx)) {
    const session = await mcpSession(ctx, endpoint, version);
    if (session.problem || !session.tools)
      return neutral(
        `skipped: the ${version} session stopped at ${session.problem ?? 'tools/list: no tools array'} (see mcp-session)`,
        fix,
      );
    const readOnly = session.tools.filter((t) => t.annotations?.readOnlyHint === true);
    if (!readOnly.length)
      return neutral(`no tool is annotated readOnlyHint: true in ${version}; the checker calls only read-only tools`, fix);
    // Prefer a tool with no required input: its call needs no guessed arguments.
    const tool = [...readOnly].sort((a, b) => (a.inputSchema?.required?.length ?? 0) - (b.inputSchema?.required?.length ?? 0))[0]!;
    const { answer, evidence: line } = await mcpCallTool(ctx, endpoint, session, tool);
    evidence.push(`[${version}] ${line}`);
    const result = answer.message?.result;
    if (!result)
      return fail(`${version} tools/call ${tool.name}: ${answer.problem ?? answer.message?.error?.message ?? 'no result'}`, fix, {
        evidence,
      });
    if (!Array.isArray(result.content))
      return fail(`${version} tools/call ${tool.name}: the result has no content array`, fix, { evidence });
    if (result.isError === true) return fail(`${version} tools/call ${tool.name} answered isError: true`, fix, { evidence });
    called.push(`${tool.name} (${version})`);
  }
  return pass(`called ${called.join(', ')}: content returned`, { evidence });
}

/** Why the site counts as offering self-service registration, or null (then nothing is written). */
function registrationAdvertised(as: Record<string, unknown>): string | null {
  if (typeof as.registration_endpoint === 'string') return `registration_endpoint ${as.registration_endpoint} (RFC 7591)`;
  const agentAuth = as.agent_auth as { identity_types_supported?: unknown; register_uri?: unknown } | undefined;
  if (
    Array.isArray(agentAuth?.identity_types_supported) &&
    agentAuth.identity_types_supported.includes('anonymous') &&
    typeof agentAuth.register_uri === 'string'
  )
    return `agent_auth anonymous registration at ${agentAuth.register_uri}`;
  return null;
}

const redact = (secret: unknown): string =>
  typeof secret === 'string' ? `${secret.slice(0, 4)}…(${secret.length} chars)` : String(secret);

/** What the OAuth exchange did, step by step. */
interface OAuthRun {
  skipped?: string;
  /** The other origin the metadata names for registration (a site built for that origin): why nothing was sent. */
  otherOrigin?: string;
  evidence: string[];
  registration?: { ok: boolean; reason: string };
  token?: { ok: boolean; reason: string } | { skipped: string };
  cleanup?: { ok: boolean; reason: string } | { skipped: string };
}

/** Register, get a token, revoke it (and delete the client when RFC 7592 management is offered). Runs once per scan. */
function oauthRun(ctx: CheckContext): Promise<OAuthRun> {
  return memo(ctx, 'oauth run', async (): Promise<OAuthRun> => {
    const evidence: string[] = [];
    const meta = await get(ctx, AS_METADATA_PATH, { accept: 'application/json' });
    const as = meta.status === 200 ? parseJsonObject(meta) : null;
    if (!as || typeof as !== 'object') return { skipped: `no authorization server metadata (${summary(ctx, meta)})`, evidence };
    const advertised = registrationAdvertised(as);
    if (!advertised) {
      const cimd =
        as.client_id_metadata_document_supported === true
          ? ' (CIMD is advertised, but a client metadata document must live at a public https URL the server fetches)'
          : '';
      return { skipped: `the site advertises no self-service registration${cimd}: nothing was sent`, evidence };
    }
    const endpoint = String(as.registration_endpoint ?? (as.agent_auth as { register_uri: string }).register_uri);
    const foreign = otherOriginOf(ctx, endpoint);
    if (foreign)
      return {
        skipped: `the registration endpoint ${endpoint} is on ${builtForOtherOrigin(ctx, foreign)} Not exercised`,
        otherOrigin: foreign,
        evidence,
      };
    if (!sameOrigin(ctx, endpoint))
      return { skipped: `the registration endpoint ${endpoint} is not a URL on this origin: not exercised`, evidence };
    const grants = Array.isArray(as.grant_types_supported) ? (as.grant_types_supported as string[]) : ['authorization_code'];
    const methods = Array.isArray(as.token_endpoint_auth_methods_supported)
      ? (as.token_endpoint_auth_methods_supported as string[])
      : ['client_secret_basic'];
    const machine = grants.includes('client_credentials');
    const authMethod = methods.includes('client_secret_basic')
      ? 'client_secret_basic'
      : methods.includes('client_secret_post')
        ? 'client_secret_post'
        : methods[0]!;
    const metadata = machine
      ? { client_name: 'agent-ready-check', grant_types: ['client_credentials'], token_endpoint_auth_method: authMethod }
      : {
          client_name: 'agent-ready-check',
          redirect_uris: ['http://127.0.0.1/agent-ready-check/callback'],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        };
    const reg = await send(ctx, endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(metadata),
    });
    const client = reg.status >= 200 && reg.status < 300 ? parseJsonObject(reg) : null;
    evidence.push(
      `POST ${shortUrl(ctx, endpoint)} ${JSON.stringify(metadata)} → ${outcome(reg)}${client && typeof client === 'object' ? `, client_id ${String(client.client_id)}` : ''}`,
    );
    const run: OAuthRun = { evidence };
    if (reg.status !== 201 || !client || typeof client !== 'object' || typeof client.client_id !== 'string') {
      run.registration = {
        ok: false,
        reason: `${advertised}, but the registration answered ${reg.status}${reg.status === 200 ? ' (RFC 7591 §3.2.1: 201 Created)' : ''}`,
      };
      return run;
    }
    run.registration = { ok: true, reason: `registered client ${client.client_id} (${advertised})` };
    const clientId = client.client_id;
    const secret = typeof client.client_secret === 'string' ? client.client_secret : undefined;
    const auth = (form: URLSearchParams): Record<string, string> => {
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
      if (secret && authMethod === 'client_secret_basic')
        headers.authorization = `Basic ${btoa(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`)}`;
      else {
        form.set('client_id', clientId);
        if (secret) form.set('client_secret', secret);
      }
      return headers;
    };
    let accessToken: string | undefined;
    let tokenUnknown = false;
    if (!machine) run.token = { skipped: 'the server offers no client_credentials grant: a token needs a user (authorization code)' };
    else if (typeof as.token_endpoint !== 'string') run.token = { ok: false, reason: 'no token_endpoint in the metadata' };
    else {
      const form = new URLSearchParams({ grant_type: 'client_credentials' });
      const headers = auth(form);
      const res = await send(ctx, as.token_endpoint, { method: 'POST', headers, body: form.toString() });
      const body = res.status === 200 ? parseJsonObject(res) : null;
      const token = body && typeof body === 'object' ? body : null;
      evidence.push(
        `POST ${shortUrl(ctx, as.token_endpoint)} grant_type=client_credentials (${authMethod}) → ${outcome(res)}${token ? `, access_token ${redact(token.access_token)}, token_type ${String(token.token_type)}, expires_in ${String(token.expires_in)}` : ''}`,
      );
      if (token && typeof token.access_token === 'string' && String(token.token_type).toLowerCase() === 'bearer') {
        accessToken = token.access_token;
        run.token = { ok: true, reason: `client_credentials → a bearer token (expires_in ${String(token.expires_in)})` };
      } else
        run.token = {
          ok: false,
          reason: `client_credentials → ${res.error ?? res.status}${token ? `, token_type ${String(token.token_type)}` : ''}`,
        };
      // A request cut after it was sent may have issued a token the checker never saw.
      tokenUnknown = res.status === 0;
    }
    // Clean up: revoke the token (RFC 7009), then delete the client when RFC 7592 management is offered.
    const cleanup: string[] = [];
    let cleanupOk = true;
    if (accessToken && typeof as.revocation_endpoint === 'string') {
      const form = new URLSearchParams({ token: accessToken, token_type_hint: 'access_token' });
      const headers = auth(form);
      const res = await send(ctx, as.revocation_endpoint, { method: 'POST', headers, body: form.toString() });
      evidence.push(`POST ${shortUrl(ctx, as.revocation_endpoint)} token=${redact(accessToken)} → ${res.status}`);
      cleanupOk &&= res.status === 200;
      cleanup.push(`token revoked → ${res.status}`);
    } else if (accessToken) {
      cleanupOk = false;
      cleanup.push('no revocation_endpoint: the token cannot be revoked (it expires on its own)');
    }
    if (typeof client.registration_client_uri === 'string' && typeof client.registration_access_token === 'string') {
      const res = await send(ctx, client.registration_client_uri, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${client.registration_access_token}` },
      });
      evidence.push(`DELETE ${shortUrl(ctx, client.registration_client_uri)} (RFC 7592) → ${res.status}`);
      cleanupOk &&= res.status === 204;
      cleanup.push(`client deleted → ${res.status}`);
    } else
      cleanup.push(
        tokenUnknown
          ? 'no RFC 7592 client management: the client registration stays (whether it holds a token is unknown: the token request got no answer)'
          : 'no RFC 7592 client management: the client registration stays (it holds no token)',
      );
    run.cleanup = accessToken || cleanup.length > 1 ? { ok: cleanupOk, reason: cleanup.join('; ') } : { skipped: cleanup.join('; ') };
    return run;
  });
}

function oauthCheck(step: 'registration' | 'token' | 'cleanup', fix: string) {
  return async (ctx: CheckContext): Promise<Verdict> => {
    if (!ctx.behaviour) return needsBehaviour(ctx, 'registers an OAuth client when the site offers self-service registration');
    const run = await oauthRun(ctx);
    const evidence = run.evidence;
    if (run.otherOrigin)
      return neutral(
        run.skipped ?? '',
        'Advertise this origin’s endpoints in the authorization server metadata: build the site for the origin it is served at.',
        {
          evidence,
          otherOrigin: run.otherOrigin,
        },
      );
    if (run.skipped) return neutral(run.skipped, fix, { evidence });
    const outcome = run[step];
    if (!outcome) return neutral(`skipped: ${step === 'token' ? 'no client was registered' : 'nothing to clean up'}`, fix, { evidence });
    if ('skipped' in outcome) return neutral(outcome.skipped, fix, { evidence });
    return outcome.ok ? pass(outcome.reason, { evidence }) : fail(outcome.reason, fix, { evidence });
  };
}

/** The JSON-RPC interface an A2A card offers on this origin: URL and protocol version. */
function a2aInterface(ctx: CheckContext, card: Record<string, unknown>): { url: string; version: string } | null {
  const interfaces = Array.isArray(card.supportedInterfaces)
    ? (card.supportedInterfaces as { url?: unknown; protocolBinding?: unknown; protocolVersion?: unknown }[])
    : [];
  const v1 = interfaces.find((i) => i.protocolBinding === 'JSONRPC' && typeof i.url === 'string' && sameOrigin(ctx, i.url));
  if (v1) return { url: v1.url as string, version: typeof v1.protocolVersion === 'string' ? v1.protocolVersion : '1.0' };
  if (typeof card.url === 'string' && sameOrigin(ctx, card.url) && (card.preferredTransport ?? 'JSONRPC') === 'JSONRPC')
    return { url: card.url, version: '0.3' };
  return null;
}

async function checkA2aSendMessage(ctx: CheckContext): Promise<Verdict> {
  const fix = 'Answer SendMessage (A2A 1.0, JSON-RPC) with a Message or a Task, as the agent card promises.';
  if (!ctx.behaviour) return needsBehaviour(ctx, 'sends an A2A message');
  const res = await get(ctx, AGENT_CARD_PATH, { accept: 'application/json' });
  const card = res.status === 200 ? parseJsonObject(res) : null;
  if (!card || typeof card !== 'object')
    return neutral(`no A2A agent card (${summary(ctx, res)}): nothing to exercise`, 'Publish an agent card if you run an A2A agent.');
  const target = a2aInterface(ctx, card);
  if (!target) {
    const named = [
      ...(Array.isArray(card.supportedInterfaces) ? (card.supportedInterfaces as { url?: unknown }[]).map((i) => i.url) : []),
      card.url,
    ].find((url): url is string => typeof url === 'string' && otherOriginOf(ctx, url) !== null);
    if (named) {
      const origin = otherOriginOf(ctx, named)!;
      return neutral(
        `the agent card names ${named}, on ${builtForOtherOrigin(ctx, origin)} Not exercised`,
        'Name this origin’s A2A endpoint in the agent card: build the site for the origin it is served at.',
        { otherOrigin: origin },
      );
    }
    return neutral('the agent card names no JSON-RPC interface on this origin', fix);
  }
  const skills = Array.isArray(card.skills) ? (card.skills as { examples?: unknown }[]) : [];
  const example =
    skills.flatMap((s) => (Array.isArray(s.examples) ? s.examples : [])).find((e): e is string => typeof e === 'string') ??
    'What can you do?';
  const modern = !target.version.startsWith('0.');
  const message = modern
    ? { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: example }] }
    : { messageId: crypto.randomUUID(), role: 'user', kind: 'message', parts: [{ kind: 'text', text: example }] };
  const body = { jsonrpc: '2.0', id: 1, method: modern ? 'SendMessage' : 'message/send', params: { message } };
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (modern) headers['a2a-version'] = target.version;
  const answer = readRpc(await send(ctx, target.url, { method: 'POST', headers, body: JSON.stringify(body) }));
  const evidence = [evidenceLine(`POST ${shortUrl(ctx, target.url)} ${body.method} (A2A ${target.version}) "${example}"`, answer, ctx)];
  const result = answer.message?.result;
  if (!result) return fail(`${body.method}: ${answer.problem ?? answer.message?.error?.message ?? 'no result'}`, fix, { evidence });
  const kind = result.message
    ? 'a Message'
    : result.task
      ? 'a Task'
      : result.kind === 'message' || result.kind === 'task'
        ? `a ${String(result.kind)}`
        : null;
  return kind
    ? pass(`${body.method} answered with ${kind}`, { evidence })
    : fail(`${body.method} answered, but with neither a Message nor a Task`, fix, { evidence });
}

async function checkTwins(ctx: CheckContext): Promise<Verdict> {
  return gradePages(
    ctx,
    async (url) => {
      const twin = await twinOf(ctx, url);
      const negotiated = isMarkdown(await negotiatedMarkdown(ctx, url));
      if ('res' in twin)
        return pageGrade('pass', `${shortUrl(ctx, twin.url)} is markdown${negotiated ? '; Accept: text/markdown too' : ''}`);
      return pageGrade(
        'fail',
        `no .md twin (${twin.tried.map((t) => summary(ctx, t)).join('; ')})${negotiated ? ', only Accept: text/markdown' : ''}`,
      );
    },
    { fix: 'Serve every sitemap page as markdown at <page>.md.' },
  );
}

const CHECKS: Check[] = [
  { id: 'mcp-session', title: 'MCP session in every claimed era', scored: true, definition: README, run: checkMcpHandshake },
  { id: 'mcp-tool-call', title: 'MCP read-only tool call', scored: true, definition: README, run: checkMcpToolCall },
  {
    id: 'oauth-registration',
    title: 'OAuth self-service registration',
    scored: true,
    definition: README,
    run: oauthCheck('registration', 'Answer RFC 7591 registration with 201 and client credentials, as the metadata advertises.'),
  },
  {
    id: 'oauth-token',
    title: 'OAuth token for the new client',
    scored: true,
    definition: README,
    run: oauthCheck('token', 'Issue a bearer token for client_credentials to a registered client.'),
  },
  {
    id: 'oauth-cleanup',
    title: 'Revocation cleans up',
    scored: true,
    definition: README,
    run: oauthCheck('cleanup', 'Offer RFC 7009 revocation (revocation_endpoint) so clients can clean up.'),
  },
  { id: 'a2a-send-message', title: 'A2A SendMessage', scored: true, definition: README, run: checkA2aSendMessage },
  { id: 'markdown-twins', title: 'Sitemap pages have markdown twins', scored: true, definition: README, run: checkTwins },
];

/** The behaviour rubric. */
export const BEHAVIOUR: Rubric = {
  id: 'behaviour',
  name: 'Behaviour (agent-ready-check)',
  version: CHECKER_VERSION,
  definition: README,
  checks: CHECKS,
  summarize(results: readonly CheckResult[]): RubricSummary {
    const failed = results.filter((r) => r.status === 'fail').map((r) => r.id);
    const exercised = results.filter((r) => r.status === 'pass' || r.status === 'fail').length;
    // A behaviour that did not run is named, never counted as working: "all work" only when every one ran.
    const notExercised = results.filter((r) => r.status === 'neutral').map((r) => r.id);
    const others = [...new Set(results.flatMap((r) => (r.otherOrigin ? [r.otherOrigin] : [])))];
    const why = others.length ? ` (the site names another origin, ${others.join(', ')}: was it built for the scanned one?)` : '';
    const skipped = notExercised.length ? `${notExercised.length} not exercised: ${notExercised.join(', ')}${why}` : '';
    let headline: string;
    if (exercised === 0) headline = `no behaviour exercised; ${skipped}`;
    else if (failed.length)
      headline = `${failed.length} of ${exercised} exercised behaviour(s) fail: ${failed.join(', ')}${skipped ? `; ${skipped}` : ''}`;
    else if (skipped)
      headline = `${exercised} of ${results.length} behaviour(s) exercised, ${exercised === 1 ? 'it works' : 'they work'}; ${skipped}`;
    else headline = `${exercised} behaviour(s) exercised, all work`;
    return { headline, failed, notExercised, ...(others.length ? { otherOrigins: others } : {}) };
  },
};
