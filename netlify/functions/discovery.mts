// The discovery documents for agents (API catalog, AI catalog, agent skills, A2A agent card), served by src/core/publish/documents.ts.
import type { Config } from '@netlify/functions';
import { DISCOVERY_EDGE, handleDiscovery } from '../../src/core/publish/documents.ts';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { build, site } from './_shared/deps.ts';
import { counting } from './_shared/usage.ts';

const deps = { origin: build.origin, version: build.version, site };

export default httpHandler((req: Request): Promise<Response> => handleDiscovery(req, deps), {
  ...DISCOVERY_EDGE,
  usage: counting('discovery'),
});

// Literal paths (the in-source config parser reads only literals): `paths` in src/core/kernel/paths.ts.
export const config: Config = {
  path: [
    '/.well-known/api-catalog',
    '/.well-known/ai-catalog.json',
    '/.well-known/ard.json',
    '/.well-known/agent-skills/*',
    '/.well-known/skills/*',
    '/.well-known/agent-card.json',
  ],
};
