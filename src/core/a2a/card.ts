/**
 * The A2A v1.0 agent card (`/.well-known/agent-card.json`, A2A §8.2): built from the same sources
 * as the MCP server card (the identity in agent-tools/identity.ts) and the agent skills (their
 * example source), with one skill per public MCP tool. Only v1.0 members (a2a.proto `AgentCard`):
 * the endpoint is in `supportedInterfaces` (once for 1.0, once for 0.3), never a top-level `url`;
 * a 0.3 client asking for the card gets the hybrid legacy.ts builds from this one.
 * @module
 */
import type { SkillSource } from '../agent-tools/identity.ts';
import { serverIdentity } from '../agent-tools/identity.ts';
import { absoluteUrl, paths } from '../kernel/paths.ts';
import { LEGACY_PROTOCOL_VERSION } from './legacy.ts';
import { A2A_SKILLS, DATA_INPUT_TYPE, DATA_OUTPUT_TYPE, TEXT_INPUT_TYPES, TEXT_OUTPUT_TYPE } from './answer.ts';

/** The A2A protocol version the endpoint speaks (`Major.Minor`, A2A §3.6). */
export const A2A_PROTOCOL_VERSION = '1.0';
/** The JSON-RPC binding's name in `AgentInterface.protocolBinding` (A2A §5.3, §9). */
export const JSONRPC_BINDING = 'JSONRPC';

/**
 * The card's media type. A2A registers no card-specific type (`application/a2a+json` is the
 * HTTP+JSON binding's, A2A §14.1), and the SDKs serve and read the card as plain JSON.
 */
export const AGENT_CARD_CONTENT_TYPE = 'application/json; charset=utf-8';

/** a2a.proto `AgentSkill` in ProtoJSON. */
export interface AgentSkillJson {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples: string[];
  inputModes: string[];
  outputModes: string[];
}

/** a2a.proto `AgentCard` in ProtoJSON: the members this card sets. */
export interface AgentCardJson {
  name: string;
  description: string;
  supportedInterfaces: { url: string; protocolBinding: string; protocolVersion: string }[];
  provider: { organization: string; url: string };
  version: string;
  documentationUrl: string;
  capabilities: { streaming: boolean; pushNotifications: boolean; extendedAgentCard: boolean };
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: AgentSkillJson[];
  iconUrl: string;
}

/** What the card is built from: the deploy and the site profile's example facts. */
export interface AgentCardSource extends SkillSource {
  version: string;
}

/**
 * How each public tool is reached over A2A, and examples that work on this site when sent as a
 * text part: prompts a person or a model would write (A2A §4.4.5 `examples`), in English and
 * Chinese; the data-part form is in each description.
 */
const SKILL_USE: Readonly<Record<string, { how: string; inputModes: readonly string[]; examples: (s: SkillSource) => string[] }>> = {
  search_articles: {
    how: 'Over A2A: send any text that is not a page URL, slug or a question about the products or the company (Chinese or English; "search for ..." works too), or the data part {"skill": "search_articles", "arguments": {...}} with the MCP tool\'s arguments (also as a text part holding exactly that JSON).',
    inputModes: [...TEXT_INPUT_TYPES, DATA_INPUT_TYPE],
    examples: (s) => [`Find articles about ${s.exampleQuery}`, ...(s.exampleQueryZh ? [`搜索关于${s.exampleQueryZh}的文章`] : [])],
  },
  get_article: {
    how: 'Over A2A: send the page URL (or its .md twin URL, or the slug) as a text part, or the data part {"skill": "get_article", "arguments": {"slug": ...}}; the answer is the article in markdown.',
    inputModes: [...TEXT_INPUT_TYPES, DATA_INPUT_TYPE],
    examples: (s) => [
      absoluteUrl(s.origin, paths.article(s.exampleSlug)),
      `Read ${absoluteUrl(s.origin, `${paths.article(s.exampleSlug)}.md`)}`,
    ],
  },
  list_products: {
    how: 'Over A2A: ask for the products in a text part ("Which products does ... offer?", "有哪些产品？"), or send the data part {"skill": "list_products"}.',
    inputModes: [...TEXT_INPUT_TYPES, DATA_INPUT_TYPE],
    examples: (s) => [`Which products does ${s.siteName} offer?`, ...(s.siteNameZh ? [`${s.siteNameZh}有哪些产品？`] : [])],
  },
  get_company_info: {
    how: 'Over A2A: ask about the company or how to contact it in a text part ("How do I contact ... sales?", "怎么联系销售？"), or send the data part {"skill": "get_company_info"}.',
    inputModes: [...TEXT_INPUT_TYPES, DATA_INPUT_TYPE],
    examples: (s) => [`How do I contact ${s.siteName} sales?`, ...(s.siteNameZh ? [`怎么联系${s.siteNameZh}的销售？`] : [])],
  },
  submit_feedback: {
    how: 'Over A2A: start a text part with "Feedback on <page URL>:" (or "Report a problem with <page URL>:", "反馈：<page URL>") and say what is wrong, outdated or missing, or that it helped; or send the data part {"skill": "submit_feedback", "arguments": {"page": ..., "kind": ..., "text": ...}}. This skill stores what it is sent.',
    inputModes: [...TEXT_INPUT_TYPES, DATA_INPUT_TYPE],
    examples: (s) => [
      `Feedback on ${absoluteUrl(s.origin, paths.article(s.exampleSlug))}: the install steps are outdated`,
      `反馈：${absoluteUrl(s.origin, paths.article(s.exampleSlug))} 缺少价格信息`,
    ],
  },
};

/** Verbs of tool names, left out of the tags (a tag says what a skill is about). */
const VERBS: readonly string[] = ['get', 'list', 'submit'];

/** The skills: one per public MCP tool, named and described as `tools/list` does. */
export function agentSkills(source: SkillSource): AgentSkillJson[] {
  return A2A_SKILLS.map((tool) => {
    const use = SKILL_USE[tool.name];
    if (!use) throw new Error(`The MCP tool ${tool.name} is public but has no A2A skill wording in agent-card.ts`);
    const tags = tool.name.split('_').filter((word) => !VERBS.includes(word));
    return {
      id: tool.name,
      name: tool.listing.title,
      description: `${tool.listing.description} ${use.how}`,
      tags: tool.name === 'search_articles' ? [...tags, ...source.categorySlugs] : tags,
      examples: use.examples(source),
      inputModes: [...use.inputModes],
      outputModes: [TEXT_OUTPUT_TYPE, DATA_OUTPUT_TYPE],
    };
  });
}

/** The agent card of the site `siteName` at `origin`. */
export function agentCard(source: AgentCardSource): AgentCardJson {
  const { origin, siteName } = source;
  const identity = serverIdentity(siteName);
  return {
    name: identity.title,
    description:
      `${identity.description} Public: no authentication; every skill only reads, but submit_feedback, which stores the feedback it is sent. ` +
      'Talk to it in plain text, Chinese or English: a search query, the URL or slug of an article, ' +
      'a question about the products, or about the company and how to contact it, or "Feedback on <page URL>: ..." ' +
      '(or call a skill with a data part {"skill": ..., "arguments": {...}}). ' +
      'The answer is one Message: markdown text that names the skill that answered (absolute links to the pages and their markdown twins) and a JSON data part. ' +
      `No tasks are kept. A2A ${A2A_PROTOCOL_VERSION} (requests carry A2A-Version: ${A2A_PROTOCOL_VERSION}) and ${LEGACY_PROTOCOL_VERSION} clients are both served at the one endpoint.`,
    // The one endpoint speaks 1.0 and, for the many clients still on it, 0.3 (legacy.ts); 1.0 first, as clients take the first they speak.
    supportedInterfaces: [A2A_PROTOCOL_VERSION, LEGACY_PROTOCOL_VERSION].map((protocolVersion) => ({
      url: absoluteUrl(origin, paths.a2a),
      protocolBinding: JSONRPC_BINDING,
      protocolVersion,
    })),
    provider: { organization: siteName, url: absoluteUrl(origin, paths.home) },
    version: source.version,
    documentationUrl: absoluteUrl(origin, paths.apiDocs),
    // Answers are immediate Messages: nothing to stream, no task to notify about, one public card.
    capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false },
    defaultInputModes: [...TEXT_INPUT_TYPES, DATA_INPUT_TYPE],
    defaultOutputModes: [TEXT_OUTPUT_TYPE, DATA_OUTPUT_TYPE],
    skills: agentSkills(source),
    iconUrl: absoluteUrl(origin, '/favicon.svg'),
  };
}
