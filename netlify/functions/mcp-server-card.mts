// GET /mcp/server-card and the two .well-known card paths: one card, built in src/core/mcp.
// Data comes through _shared/*.ts: Netlify's config parser rejects JSON import attributes here.
import type { Config } from '@netlify/functions';
import { httpHandler } from '../../src/core/http/handler.ts';
import { handleServerCard } from '../../src/core/mcp/server-card.ts';
import { build, site } from './_shared/deps.ts';

const deps = { origin: build.origin, version: build.version, siteName: site.company.name };

export default httpHandler((req: Request): Promise<Response> => handleServerCard(req, deps));

// Literal paths (the in-source config parser reads only literals): SERVER_CARD_PATHS in core.
export const config: Config = { path: ['/.well-known/mcp/server-card.json', '/.well-known/mcp.json', '/mcp/server-card'] };
