/** The A2A agent card: v1.0 members only, what the SDK reads back, skills = public MCP tools, and examples that work. */
import { A2A_PROTOCOL_VERSION as SDK_PROTOCOL_VERSION, AgentCard, AGENT_CARD_PATH } from '@a2a-js/sdk';
import { isLegacyAgentCard, parseLegacyAgentCard } from '@a2a-js/sdk/compat/v0_3/client';
import { describe, expect, it } from 'vitest';
import { a2aSendMessage, FIXTURE_DEPS, FIXTURE_ORIGIN, memoryFeedbackSink } from '../../../tests/support/core-fixtures.ts';
import { TOOLS } from '../agent-tools/registry.ts';
import { serverIdentity } from '../agent-tools/identity.ts';
import { paths } from '../kernel/paths.ts';
import { A2A_PROTOCOL_VERSION, agentCard, type AgentCardSource } from './card.ts';
import { legacyAgentCard } from './legacy.ts';
import { handleA2a } from './server.ts';

const SOURCE: AgentCardSource = {
  origin: FIXTURE_ORIGIN,
  version: '9.9.9',
  siteName: 'Acme AI',
  categorySlugs: ['rag', 'ai-agents'],
  exampleSlug: 'rag-chunking',
  exampleQuery: 'RAG',
  siteNameZh: '艾克米智能',
  exampleQueryZh: '检索增强',
};
const card = agentCard(SOURCE);

describe('agent card', () => {
  it("is served where the SDK looks for it and speaks the SDK's protocol version", () => {
    expect(paths.agentCard).toBe(`/${AGENT_CARD_PATH}`);
    expect(A2A_PROTOCOL_VERSION).toBe(SDK_PROTOCOL_VERSION);
  });

  it('has the v1.0 required members and none of the 0.3 ones: the endpoint is a JSONRPC supportedInterface, for 1.0 and 0.3', () => {
    for (const member of [
      'name',
      'description',
      'supportedInterfaces',
      'version',
      'capabilities',
      'defaultInputModes',
      'defaultOutputModes',
      'skills',
    ])
      expect(card, member).toHaveProperty(member);
    for (const legacy of ['url', 'preferredTransport', 'additionalInterfaces', 'protocolVersion', 'supportsAuthenticatedExtendedCard'])
      expect(card, legacy).not.toHaveProperty(legacy);
    expect(card.supportedInterfaces).toEqual([
      { url: `${FIXTURE_ORIGIN}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${FIXTURE_ORIGIN}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ]);
    expect(card.version).toBe('9.9.9');
    expect(card.capabilities).toEqual({ streaming: false, pushNotifications: false, extendedAgentCard: false });
  });

  it("round-trips through the SDK's proto codec unchanged: every member is an AgentCard field, spelled as ProtoJSON spells it", () => {
    expect(AgentCard.toJSON(AgentCard.fromJSON(card))).toEqual(card);
  });

  it("0.3 clients get the SDK's hybrid: 0.3 top-level url, transport and version, and the v1.0 interfaces embedded", () => {
    const hybrid = legacyAgentCard(card);
    expect(hybrid).toMatchObject({
      url: `${FIXTURE_ORIGIN}/a2a`,
      preferredTransport: 'JSONRPC',
      protocolVersion: '0.3',
      capabilities: { streaming: false, pushNotifications: false },
      supportsAuthenticatedExtendedCard: false,
      supportedInterfaces: card.supportedInterfaces,
    });
    expect(hybrid.skills).toEqual(card.skills);
    // How the 1.x SDK's client reads each: the hybrid counts as v1.0 (it has supportedInterfaces), a card without them as 0.3.
    expect(isLegacyAgentCard(hybrid)).toBe(false);
    expect(isLegacyAgentCard({ ...hybrid, supportedInterfaces: undefined })).toBe(true);
    expect(parseLegacyAgentCard({ ...hybrid, supportedInterfaces: undefined }).supportedInterfaces).toEqual([
      expect.objectContaining({ url: `${FIXTURE_ORIGIN}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' }),
    ]);
  });

  it('is public: it declares no security scheme or requirement, and says so', () => {
    expect(card).not.toHaveProperty('securitySchemes');
    expect(card).not.toHaveProperty('securityRequirements');
    expect(card.description).toContain('no authentication');
  });

  it("shares the MCP server's identity, and has one skill per public MCP tool with its title and description", () => {
    const identity = serverIdentity('Acme AI');
    expect(card.name).toBe(identity.title);
    expect(card.description.startsWith(identity.description)).toBe(true);
    const publicTools = TOOLS.filter((t) => t.requiredScope === undefined);
    expect(card.skills.map((s) => s.id)).toEqual(publicTools.map((t) => t.name));
    expect(card.skills.map((s) => s.id)).not.toContain('export_article_index');
    for (const [i, skill] of card.skills.entries()) {
      expect(skill.name).toBe(publicTools[i]!.listing.title);
      expect(skill.description.startsWith(publicTools[i]!.listing.description)).toBe(true);
      expect(skill.tags.length, skill.id).toBeGreaterThan(0);
      expect(skill.examples.length, skill.id).toBeGreaterThan(0);
    }
  });

  it('every skill example is a prompt (English and Chinese) that, sent as a text part, is answered by that skill and says so', async () => {
    for (const skill of card.skills) {
      expect(skill.examples.some((e) => /\p{Script=Han}/u.test(e)) || skill.id === 'get_article', skill.id).toBe(true);
      for (const example of skill.examples) {
        expect(example.startsWith('{'), example).toBe(false);
        const part = { text: example };
        const res = await handleA2a(a2aSendMessage([part], FIXTURE_ORIGIN, 'm'), {
          ...FIXTURE_DEPS,
          card: AgentCard.fromJSON(agentCard(SOURCE)),
          feedback: memoryFeedbackSink('a2a'),
        });
        const body = (await res.json()) as {
          result?: { message: { parts: { text?: string; data?: { skill: string; error?: string } }[] } };
        };
        const data = body.result?.message.parts[1]?.data;
        expect(data?.skill, `${skill.id}: ${example}`).toBe(skill.id);
        expect(data?.error, `${skill.id}: ${example}`).toBeUndefined();
        expect(body.result?.message.parts[0]?.text, example).toMatch(new RegExp(`\\(Answered by the skill ${skill.id}: [^)]+\\.\\)$`));
      }
    }
  });
});
