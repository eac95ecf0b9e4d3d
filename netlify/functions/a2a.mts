// POST /a2a: the site's A2A v1.0 agent (JSON-RPC); all logic lives in src/core/a2a.
// Data comes through _shared/*.ts: Netlify's config parser rejects JSON import attributes here.
import type { Config } from '@netlify/functions';
import { handleA2a, type A2aDeps } from '../../src/core/a2a/server.ts';
import { AgentCard } from '@a2a-js/sdk';
import { agentCard } from '../../src/core/publish/agent-card.ts';
import { agentCardSource } from '../../src/core/publish/documents.ts';
import { AGENT_ENTRY_POINTS } from '../../src/core/publish/entry-points.ts';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { build, catalog, site } from './_shared/deps.ts';
import { searchEngine } from './_shared/search.ts';

const deps: A2aDeps = {
  catalog, engine: searchEngine, origin: build.origin, entryPoints: AGENT_ENTRY_POINTS,
  card: AgentCard.fromJSON(agentCard(agentCardSource({ origin: build.origin, version: build.version, site }))),
};

export default httpHandler((req: Request): Promise<Response> => handleA2a(req, deps));

export const config: Config = { path: '/a2a' };
