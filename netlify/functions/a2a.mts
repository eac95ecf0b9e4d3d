// POST /a2a: the site's A2A v1.0 agent (JSON-RPC); all logic lives in src/core/a2a.
// Data comes through _shared/*.ts: Netlify's config parser rejects JSON import attributes here.
import type { Config, Context } from '@netlify/functions';
import { a2aEdge, handleA2a, MAX_BODY_BYTES, type A2aDeps } from '../../src/core/a2a/server.ts';
import { AgentCard } from '@a2a-js/sdk';
import { agentCard } from '../../src/core/a2a/card.ts';
import { agentCardSource } from '../../src/core/publish/documents.ts';
import { AGENT_ENTRY_POINTS } from '../../src/core/publish/entry-points.ts';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { build, catalogAt, deployBodies, site, runtimeConfig } from './_shared/deps.ts';
import { searchEngineAt } from './_shared/search.ts';
import { perRequestAgentDeps } from './_shared/agent-request-deps.ts';
import { readLimited } from './_shared/read-limit.ts';
import { counting } from './_shared/usage.ts';

// As in the MCP function: the index and catalogue files ship beside it (netlify.toml included_files), bodies come from the deploy's Blobs.
const catalog = catalogAt(new URL('../../generated/data/catalog/', import.meta.url));
const engine = searchEngineAt(new URL('../../generated/data/search/', import.meta.url));

const deps: A2aDeps = {
  site,
  bodies: deployBodies,
  origin: build.origin,
  entryPoints: AGENT_ENTRY_POINTS,
  get browserOrigins() {
    return runtimeConfig().browserOrigins;
  },
  get catalog() {
    return catalog();
  },
  get engine() {
    return engine();
  },
  card: AgentCard.fromJSON(agentCard(agentCardSource({ origin: build.origin, version: build.version, site }))),
};

export default httpHandler(
  (req: Request, context: Context): Promise<Response> => handleA2a(req, perRequestAgentDeps(deps, context, 'a2a', catalog)),
  {
    ...a2aEdge(deps),
    usage: counting('a2a'),
    admission: readLimited('jsonrpc', MAX_BODY_BYTES),
  },
);

export const config: Config = { path: '/a2a' };
