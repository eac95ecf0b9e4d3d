/**
 * Agent Skills: `/.well-known/agent-skills/index.json` and one `SKILL.md` per skill, rendered from
 * the same constants the endpoints enforce (paths, limits, scopes), with sha256 digests of the
 * exact bytes served.
 *
 * Two "0.2.0" index shapes circulate (docs/reference/agent-discovery.md §2.10); each entry satisfies both: the
 * scanner's `{name, type, description, url, digest}` and the discovery RFC's `files[{path, digest}]`.
 * The skill-level `digest` is the scanner's (the bytes at `url`); for a one-file skill the RFC's
 * manifest digest would differ, and the scanner is what agents meet first.
 *
 * The `skills` CLI (`npx skills add <url>`, vercel-labs/skills) reads `files` as a list of paths and
 * rejects the RFC's objects, then falls back to the legacy `/.well-known/skills/index.json`
 * ({@link legacySkillsIndex}): the same skills, the same SKILL.md bytes under `/.well-known/skills/`.
 * @module
 */
import type { SkillSource } from '../agent-tools/identity.ts';
import { sha256Hex } from '../kernel/crypto.ts';
import { EXPORT_RATE_LIMIT } from '../mcp/auth.ts';
import { DEFAULT_EXPORT_PAGE_SIZE, EXPORT_SCOPE, MAX_EXPORT_PAGE_SIZE } from '../agent-tools/export-article-index.ts';
import { clientCredentialsTokenExample, registrationRequestExample } from './auth-md.ts';
import { ACCESS_TOKEN_TTL_SECONDS, OAUTH_PATHS } from '../oauth/config.ts';
import { DEFAULT_RESULT_LIMIT, MAX_RESULT_LIMIT } from '../search/search-index.ts';
import { absoluteUrl, paths } from '../kernel/paths.ts';

export const AGENT_SKILLS_SCHEMA_URL = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
export const AGENT_SKILLS_VERSION = '0.2.0';
export const SKILL_FILE = 'SKILL.md';
export const SKILL_CONTENT_TYPE = 'text/markdown; charset=utf-8';

/** What the skills are written from. */

interface SkillDefinition {
  name: string;
  description: string;
  body: (s: SkillSource) => string;
}

const MCP_HEADERS = 'Content-Type: application/json\nAccept: application/json, text/event-stream\nMCP-Protocol-Version: 2025-11-25';

const SKILLS: readonly SkillDefinition[] = [
  {
    name: 'search-library',
    description: 'Search the articles and solutions of this site (Chinese and English) and get ranked results with URLs.',
    body: (s) => {
      const host = new URL(s.origin).host;
      return `# Search the ${s.siteName} library

Use this when you need ${s.siteName}'s articles or solutions on a topic. No credential is needed.

## Over HTTP

\`\`\`http
GET ${paths.apiSearch}?q=${encodeURIComponent(s.exampleQuery)}&limit=5 HTTP/1.1
Host: ${host}
Accept: application/json
\`\`\`

- \`q\` (required): the search text, Chinese, English or mixed; typos and prefixes are tolerated.
- \`limit\` (optional): 1 to ${MAX_RESULT_LIMIT}, default ${DEFAULT_RESULT_LIMIT}.
- The answer is a JSON array of \`{slug, title, category, date, excerpt, type, url, lang}\`, best match first.
- A bad parameter answers \`400\` with an RFC 9457 problem (\`application/problem+json\`) naming it in \`invalid_params\`.

## Over MCP

\`POST ${absoluteUrl(s.origin, paths.mcp)}\` with

\`\`\`http
${MCP_HEADERS}

{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_articles","arguments":{"query":${JSON.stringify(s.exampleQuery)},"limit":5}}}
\`\`\`

\`category\` narrows the search to one of: ${s.categorySlugs.map((c) => `\`${c}\``).join(', ')}.
The result's \`structuredContent.results\` has the same fields as the HTTP answer. Same engine, same ranking.

Next: read a result with the \`read-article\` skill. The same endpoint also answers \`list_products\` (the product line)
and \`get_company_info\` (profile, contact channels, key resources), both without arguments.
`;
    },
  },
  {
    name: 'read-article',
    description: 'Read the full text of an article, solution or any page of this site as markdown.',
    body: (s) => `# Read a ${s.siteName} article

Every HTML page has a markdown twin. No credential is needed.

- Append \`.md\` to the page path: \`GET ${absoluteUrl(s.origin, `${paths.article(s.exampleSlug)}.md`)}\`
- Or request the page itself with \`Accept: text/markdown\`: \`GET ${absoluteUrl(s.origin, paths.article(s.exampleSlug))}\`
- Or over MCP: \`tools/call\` of \`get_article\` with \`{"slug":"${s.exampleSlug}"}\` at \`${absoluteUrl(s.origin, paths.mcp)}\`
  (headers as in the \`search-library\` skill). An unknown slug is a tool result with \`isError: true\`
  and a message saying how to find valid slugs.

The list of every page, with its markdown URL, is \`${absoluteUrl(s.origin, paths.llms)}\`; the whole corpus
in one file is \`${absoluteUrl(s.origin, paths.llmsFull)}\`. When you quote, attribute ${s.siteName} and link the page.

Found something wrong, outdated or missing on a page? Tell the site owner with the MCP tool \`submit_feedback\`
(\`{"page": "${paths.article(s.exampleSlug)}", "kind": "outdated", "text": "..."}\`; kinds: wrong, outdated, missing, helpful,
not_helpful) or \`POST ${absoluteUrl(s.origin, paths.apiFeedback)}\` with the same JSON. It stores what you send: no personal data.
`,
  },
  {
    name: 'get-export-token',
    description: `Register anonymously, get an OAuth access token with scope ${EXPORT_SCOPE}, and export the whole article index over MCP.`,
    body: (s) => {
      const host = new URL(s.origin).host;
      return `# Get an export token for ${s.siteName}

The MCP tool \`export_article_index\` needs a bearer token with scope \`${EXPORT_SCOPE}\`. Registration is
anonymous and self-service. The full guide, with every error, is \`${absoluteUrl(s.origin, paths.authMd)}\`.

1. Register (RFC 7591). Keep \`client_id\` and \`client_secret\`: the secret is shown once.

${registrationRequestExample(host)}

2. Get an access token (valid ${ACCESS_TOKEN_TTL_SECONDS} s; ask again when it expires). HTTP Basic with
\`client_id:client_secret\` works as well as the secret in the body.

${clientCredentialsTokenExample(host, EXPORT_SCOPE)}

3. Call the tool with \`Authorization: Bearer <access_token>\` at \`${absoluteUrl(s.origin, paths.mcp)}\`:

\`\`\`json
{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"export_article_index","arguments":{"limit":${DEFAULT_EXPORT_PAGE_SIZE}}}}
\`\`\`

Pages hold up to ${MAX_EXPORT_PAGE_SIZE} entries (default ${DEFAULT_EXPORT_PAGE_SIZE}); pass \`structuredContent.next_cursor\` back as
\`cursor\` until it is absent. Each client may make ${EXPORT_RATE_LIMIT.limit} export calls per ${EXPORT_RATE_LIMIT.windowSeconds === 3600 ? 'hour' : `${EXPORT_RATE_LIMIT.windowSeconds} s`}; over that the answer is
HTTP 429 with \`Retry-After\`.

4. Without a token the call answers HTTP 401 with
\`WWW-Authenticate: Bearer resource_metadata="${absoluteUrl(s.origin, OAUTH_PATHS.prmMcp)}", scope="${EXPORT_SCOPE}"\`;
a token without the scope answers 403 \`insufficient_scope\`.

5. When done, revoke the token: \`POST ${OAUTH_PATHS.revoke}\` with the same client authentication and \`token=<access_token>\`.
`;
    },
  },
];

/** One served skill file and its digest. */
export interface RenderedSkill {
  name: string;
  description: string;
  path: string;
  markdown: string;
  sha256Hex: string;
}

export interface AgentSkillsIndex {
  $schema: string;
  version: string;
  skills: { name: string; type: 'skill-md'; description: string; url: string; digest: string; files: { path: string; digest: string }[] }[];
}

/** YAML front matter the Agent Skills format requires (`name` equals the directory). */
function withFrontMatter(skill: SkillDefinition, body: string): string {
  return `---\nname: ${skill.name}\ndescription: ${JSON.stringify(skill.description)}\n---\n\n${body}`;
}

/** Name, description and path of every skill (the developers hub lists them without their text). */
export function skillSummaries(): { name: string; description: string; path: string }[] {
  return SKILLS.map((skill) => ({ name: skill.name, description: skill.description, path: paths.agentSkill(skill.name) }));
}

/** Renders every skill and hashes its bytes. */
export async function renderSkills(source: SkillSource): Promise<RenderedSkill[]> {
  return Promise.all(
    SKILLS.map(async (skill) => {
      const markdown = withFrontMatter(skill, skill.body(source));
      return {
        name: skill.name,
        description: skill.description,
        path: paths.agentSkill(skill.name),
        markdown,
        sha256Hex: await sha256Hex(markdown),
      };
    }),
  );
}

/** The discovery index for rendered skills. */
export function agentSkillsIndex(origin: string, skills: readonly RenderedSkill[]): AgentSkillsIndex {
  return {
    $schema: AGENT_SKILLS_SCHEMA_URL,
    version: AGENT_SKILLS_VERSION,
    skills: skills.map((s) => ({
      name: s.name,
      type: 'skill-md',
      description: s.description,
      url: absoluteUrl(origin, s.path),
      digest: `sha256:${s.sha256Hex}`,
      files: [{ path: SKILL_FILE, digest: `sha256:${s.sha256Hex}` }],
    })),
  };
}

/** The legacy index (`/.well-known/skills/index.json`): each skill's name, description and file paths relative to its folder. */
export interface LegacySkillsIndex {
  skills: { name: string; description: string; files: string[] }[];
}

/** The legacy skills index for rendered skills; each file is served at {@link paths.legacySkill}. */
export function legacySkillsIndex(skills: readonly RenderedSkill[]): LegacySkillsIndex {
  return { skills: skills.map((s) => ({ name: s.name, description: s.description, files: [SKILL_FILE] })) };
}
