/**
 * One registry, no drift (issue 27 item 14): the MCP tool registry (agent-tools/registry.ts) is the
 * one list of capabilities, and every surface that names tools names exactly those: `tools/list`,
 * the MCP `initialize` instructions, the A2A card's skills, the agent skills (both indexes), the
 * composed OpenAPI document and llms.txt. A surface naming a tool the registry lacks, or leaving one
 * out, fails here. The one declared exception: the A2A agent is public (no OAuth), so its card lists
 * the public tools only.
 */
import { describe, expect, it } from 'vitest';
import { FIXTURE_CATALOG, FIXTURE_DEPS, FIXTURE_ORIGIN, modernRequest } from '../../../tests/support/core-fixtures.ts';
import { siteProfile } from '../content/catalog.ts';
import { TOOLS } from '../agent-tools/registry.ts';
import { serverIdentity } from '../agent-tools/identity.ts';
import { handleMcp } from '../mcp/server.ts';
import { serverCard } from '../mcp/server-card.ts';
import { discoveryDocuments, handleDiscovery } from './documents.ts';
import { apiDocumentOf } from './openapi.ts';
import { llmsTxt } from './llms.ts';

/** Anything shaped like a tool name (a verb of the registry's, an underscore, words): what a surface claims to offer. */
const TOOL_LIKE = /\b(?:search|get|list|export|read|find|create|update|delete|send|submit)_[a-z]+(?:_[a-z]+)*\b/g;
const ALL = TOOLS.map((t) => t.name).sort();
const PUBLIC = TOOLS.filter((t) => t.requiredScope === undefined)
  .map((t) => t.name)
  .sort();
/** Names shaped like tools that are something else: the health report's check of the search index. */
const NOT_TOOLS: readonly string[] = ['search_index'];
const named = (text: string): string[] => [...new Set(text.match(TOOL_LIKE) ?? [])].filter((n) => !NOT_TOOLS.includes(n)).sort();

const deps = { origin: FIXTURE_ORIGIN, version: '9.9.9', site: siteProfile(FIXTURE_CATALOG) };

describe('every surface names the tools of the one registry', () => {
  it('tools/list', async () => {
    const res = await handleMcp(modernRequest('tools/list'), FIXTURE_DEPS);
    const { result } = (await res.json()) as { result: { tools: { name: string }[] } };
    expect(result.tools.map((t) => t.name).sort()).toEqual(ALL);
  });

  it('the MCP instructions and server card', () => {
    expect(named(serverIdentity('Acme AI').instructions)).toEqual(ALL);
    // The card describes the server, not its tools (SEP-2127 leaves them to tools/list): it names none.
    expect(named(JSON.stringify(serverCard(FIXTURE_ORIGIN, '9.9.9', 'Acme AI')))).toEqual([]);
  });

  it('the A2A card: one skill per public tool, and its text names no other', async () => {
    const card = (await (await handleDiscovery(new Request(`${FIXTURE_ORIGIN}/.well-known/agent-card.json`), deps)).json()) as {
      skills: { id: string }[];
    };
    expect(card.skills.map((s) => s.id).sort()).toEqual(PUBLIC);
    expect(named(JSON.stringify(card))).toEqual(PUBLIC);
  });

  it('the agent skills, current and legacy index', async () => {
    const docs = await discoveryDocuments(deps);
    for (const prefix of ['/.well-known/agent-skills/', '/.well-known/skills/']) {
      const text = [...docs].filter(([path]) => path.startsWith(prefix) && path.endsWith('/SKILL.md')).map(([, d]) => d.body);
      expect(text.length, prefix).toBe(3);
      expect(named(text.join('\n')), prefix).toEqual(ALL);
    }
  });

  it('the OpenAPI document and llms.txt', () => {
    expect(named(JSON.stringify(apiDocumentOf(FIXTURE_CATALOG)))).toEqual(ALL);
    expect(named(llmsTxt(FIXTURE_CATALOG))).toEqual(ALL);
  });
});
