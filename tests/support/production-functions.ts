/**
 * Run inside a production-only install (`npm install --omit=dev`) after `npm run build`: imports
 * every HTTP function as Netlify would load it and answers one request each, against a local Blobs
 * server with the build's deploy store. Prints one JSON line per function: name and status (or the
 * error). tests/integration/production-install.test.ts runs it.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LOCAL_DEPLOY_ID, LOCAL_SITE_ID, seedDeployStore } from '../../scripts/runtime/deploy-blobs.ts';
import { startLocalBlobs } from '../../scripts/runtime/local-blobs.ts';
import { a2aSendMessage } from './core-fixtures.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const ORIGIN = JSON.parse(readFileSync(path.join(ROOT, 'generated', 'build-info.json'), 'utf8')).origin as string;

/** One request per function, as a client would send it. */
const REQUESTS: Record<string, () => Request> = {
  'api-search': () => new Request(`${ORIGIN}/api/search?q=gateway`),
  'api-tweets': () => new Request(`${ORIGIN}/api/tweets`),
  'api-not-found': () => new Request(`${ORIGIN}/api/nope`),
  'api-contact': () =>
    new Request(`${ORIGIN}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Prod Install', email: 'prod@example.com', message: 'hello' }),
    }),
  'api-feedback': () =>
    new Request(`${ORIGIN}/api/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ page: '/blog/', kind: 'helpful' }),
    }),
  // No OPS_SECRET here: the page answers its sign-in challenge.
  ops: () => new Request(`${ORIGIN}/ops/`),
  health: () => new Request(`${ORIGIN}/health`),
  mcp: () =>
    new Request(`${ORIGIN}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_article', arguments: { slug: firstSlug() } },
      }),
    }),
  'mcp-server-card': () => new Request(`${ORIGIN}/.well-known/mcp/server-card.json`),
  a2a: () => a2aSendMessage([{ text: 'gateway' }], ORIGIN),
  discovery: () => new Request(`${ORIGIN}/.well-known/agent-card.json`),
  'http-message-signatures-directory': () => new Request(`${ORIGIN}/.well-known/http-message-signatures-directory`),
  'oauth-metadata': () => new Request(`${ORIGIN}/.well-known/oauth-authorization-server`),
  'oauth-register': () =>
    new Request(`${ORIGIN}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'prod install', grant_types: ['client_credentials'] }),
    }),
  'oauth-token': () =>
    new Request(`${ORIGIN}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=agt_unknown&client_secret=x',
    }),
  'oauth-revoke': () =>
    new Request(`${ORIGIN}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'token=x&client_id=agt_unknown&client_secret=x',
    }),
  // A page's Open Graph card, drawn: satori, sharp and the fonts are production dependencies.
  'og-image': () => new Request(`${ORIGIN}${firstOgImage()}`),
  'oauth-authorize': () => new Request(`${ORIGIN}/oauth/authorize?response_type=code&client_id=agt_unknown`),
  'oauth-claim': () =>
    new Request(`${ORIGIN}/oauth/claim`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"claim_token":"clm_x"}',
    }),
};

/** The first card the build listed after the site-wide one (the function draws every page's card but that static file). */
function firstOgImage(): string {
  const rows = JSON.parse(readFileSync(path.join(ROOT, 'generated', 'data', 'og', 'cards.json'), 'utf8')) as [string][];
  return encodeURI(rows.find(([image]) => image !== '/og/index.png')![0]);
}

function firstSlug(): string {
  const dir = path.join(ROOT, 'generated', 'data', 'catalog');
  const file = readdirSync(dir).find((f) => f.startsWith('docs-'))!;
  return (JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { columns: { slug: string[] } }).columns.slug[0]!;
}

const blobsDir = mkdtempSync(path.join(tmpdir(), 'prod-blobs-'));
seedDeployStore(blobsDir, ROOT);
const token = randomUUID();
const blobs = await startLocalBlobs(blobsDir, token, { owner: true });
(globalThis as { netlifyBlobsContext?: string }).netlifyBlobsContext = Buffer.from(
  JSON.stringify({
    edgeURL: blobs.url,
    uncachedEdgeURL: blobs.url,
    token,
    siteID: LOCAL_SITE_ID,
    deployID: LOCAL_DEPLOY_ID,
    primaryRegion: 'us-east-2',
  }),
).toString('base64');
const context = {
  ip: '203.0.113.9',
  requestId: randomUUID(),
  site: { id: '0', name: 'prod', url: ORIGIN },
  deploy: { id: LOCAL_DEPLOY_ID },
};
for (const [name, request] of Object.entries(REQUESTS)) {
  try {
    const module = (await import(pathToFileURL(path.join(ROOT, 'netlify', 'functions', `${name}.mts`)).href)) as {
      default: (req: Request, context: object) => Promise<Response>;
    };
    const res = await module.default(request(), context);
    console.log(JSON.stringify({ name, status: res.status, body: (await res.text()).slice(0, 120) }));
  } catch (error) {
    console.log(JSON.stringify({ name, error: error instanceof Error ? error.message : String(error) }));
  }
}
await blobs.stop();
