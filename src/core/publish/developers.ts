/**
 * The developers hub (`/developers`): what a developer or an agent builder can use on this site,
 * grouped, with how to connect an MCP client. The HTML page and its markdown twin both render this.
 * @module
 */
import { indexPointer, inlinePlainText } from '../content/markdown.ts';
import { TOOLS } from '../agent-tools/registry.ts';
import { OAUTH_PATHS } from '../oauth/config.ts';
import { absoluteUrl, paths } from '../kernel/paths.ts';
import { skillSummaries } from './agent-skills.ts';

export interface HubLink {
  title: string;
  path: string;
  /** Media type of what the link answers. */
  type: string;
  description: string;
}

export interface HubSection {
  id: string;
  title: string;
  intro: string;
  links: HubLink[];
}

export interface DevelopersHub {
  title: string;
  summary: string;
  sections: HubSection[];
  mcp: {
    endpoint: string;
    /** A short name for client configuration files. */
    serverName: string;
    tools: { name: string; description: string; scope?: string }[];
    /** Ways to connect, each a title and a snippet. */
    connect: { title: string; lang: string; code: string }[];
  };
}

/** A config-file key from the site name: `Acme AI` -> `acme-ai`. */
const serverNameOf = (siteName: string): string =>
  siteName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'site';

/** The first sentence of a tool description (the rest is for the model). */
const firstSentence = (text: string): string => /^.*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text;

/** `feedName` is the name of the feed at /api/tweets (company.yaml `copy.feed_name`, src/core/content/site-copy.ts). */
export function developersHub(origin: string, siteName: string, feedName: string): DevelopersHub {
  const endpoint = absoluteUrl(origin, paths.mcp);
  const serverName = serverNameOf(siteName);
  return {
    title: 'Developers',
    summary: `Build on ${siteName}: an HTTP API with an OpenAPI description, an MCP server for AI agents, OAuth for agents without an account, and the whole library as markdown for language models.`,
    sections: [
      {
        id: 'http-api',
        title: 'HTTP API',
        intro: `Search the library, read the ${feedName}, send an enquiry. Public, no key, CORS open.`,
        links: [
          {
            title: 'API reference',
            path: paths.apiDocs,
            type: 'text/html',
            description: 'Every endpoint with parameters, schemas, examples of every response, and curl, JavaScript and Python requests.',
          },
          {
            title: 'OpenAPI 3.1 description',
            path: paths.openApi,
            type: 'application/json',
            description: 'Generate a client or import it into your API tool.',
          },
          {
            title: 'API catalog',
            path: paths.apiCatalog,
            type: 'application/linkset+json',
            description: 'RFC 9727 linkset of the APIs with their descriptions, docs and status.',
          },
        ],
      },
      {
        id: 'mcp',
        title: 'MCP server',
        intro: `Model Context Protocol over Streamable HTTP at ${endpoint}: tools to search, read and list the content. Public tools need no token.`,
        links: [
          {
            title: 'MCP server card',
            path: paths.mcpServerCard,
            type: 'application/mcp-server-card+json',
            description: 'Name, version, transport and protocol versions.',
          },
          {
            title: 'MCP in the API reference',
            path: paths.apiOperation('mcp'),
            type: 'text/html',
            description: 'Every status and JSON-RPC error of the endpoint, with examples.',
          },
        ],
      },
      {
        id: 'auth',
        title: 'Authorization for agents',
        intro: 'Agents register anonymously (RFC 7591), get an OAuth token, and a person can claim the registration later.',
        links: [
          {
            title: 'auth.md',
            path: paths.authMd,
            type: 'text/markdown',
            description: 'The walkthrough: register, get a token, call the protected tool, revoke.',
          },
          {
            title: 'Authorization server metadata',
            path: OAUTH_PATHS.asMetadata,
            type: 'application/json',
            description: 'RFC 8414: every endpoint, grant, scope and the agent_auth block.',
          },
          {
            title: 'Protected resource metadata',
            path: OAUTH_PATHS.prmMcp,
            type: 'application/json',
            description: 'RFC 9728 metadata of the MCP server.',
          },
        ],
      },
      {
        id: 'llms',
        title: 'For language models',
        intro: 'Every page has a markdown twin: append `.md` to its path, or ask for it with `Accept: text/markdown`.',
        links: [
          {
            title: 'llms.txt',
            path: paths.llms,
            type: 'text/plain',
            description: 'A map of the site for language models, linking every markdown twin.',
          },
          {
            title: 'llms-full.txt',
            path: paths.llmsFull,
            type: 'text/plain',
            description: 'Every article, solution and product in one file.',
          },
          {
            title: 'AI catalog',
            path: paths.aiCatalog,
            type: 'application/json',
            description: 'The MCP server, the HTTP API and the content, with example queries.',
          },
        ],
      },
      {
        id: 'skills',
        title: 'Agent skills',
        intro: 'Step-by-step guides an agent can load (SKILL.md files, listed with their digests).',
        links: [
          { title: 'Skills index', path: paths.agentSkills, type: 'application/json', description: 'Every skill with its sha256 digest.' },
          ...skillSummaries().map((skill) => ({
            title: skill.name,
            path: skill.path,
            type: 'text/markdown',
            description: skill.description,
          })),
        ],
      },
    ],
    mcp: {
      endpoint,
      serverName,
      tools: TOOLS.map((tool) => ({
        name: tool.name,
        description: firstSentence(tool.listing.description),
        ...(tool.requiredScope ? { scope: tool.requiredScope } : {}),
      })),
      connect: [
        { title: 'Claude Code', lang: 'shellscript', code: `claude mcp add --transport http ${serverName} ${endpoint}` },
        {
          title: 'Cursor, Claude Desktop and other clients (mcpServers JSON)',
          lang: 'json',
          code: JSON.stringify({ mcpServers: { [serverName]: { url: endpoint } } }, null, 2),
        },
        {
          title: 'VS Code (.vscode/mcp.json)',
          lang: 'json',
          code: JSON.stringify({ servers: { [serverName]: { type: 'http', url: endpoint } } }, null, 2),
        },
        {
          title: 'MCP Inspector (choose Streamable HTTP, paste the URL)',
          lang: 'shellscript',
          code: 'npx @modelcontextprotocol/inspector',
        },
      ],
    },
  };
}

/**
 * The words a reader may search the hub by, beyond its title: the section titles and intros, the
 * link titles, the MCP tools and the clients it shows how to connect ("MCP Inspector", "Claude Code",
 * "Agent skills", 智能体技能). One line each (src/core/publish/search-pages.ts serves it).
 */
export function hubSearchText(hub: Pick<DevelopersHub, 'sections' | 'mcp'>): string {
  return [
    ...hub.sections.flatMap((section) => [section.title, inlinePlainText(section.intro), ...section.links.map((link) => link.title)]),
    ...hub.mcp.tools.map((tool) => tool.name),
    ...hub.mcp.connect.map((way) => way.title),
  ].join('\n');
}

/**
 * The markdown twin of `/developers` (or of the hub at `path` in another language, whose page says `notice` under its
 * lead), in the page's order: each link as its card shows it (title, what it is, media type).
 */
export function developersMarkdown(origin: string, hub: DevelopersHub, path: string = paths.developers, notice?: string): string {
  const lines = [indexPointer(origin), '', `# ${hub.title}`, '', `> ${hub.summary}`, '', `- URL: ${absoluteUrl(origin, path)}`, ''];
  if (notice) lines.push(notice, '');
  for (const section of hub.sections) {
    lines.push(`## ${section.title}`, '', section.intro, '');
    for (const link of section.links)
      lines.push(`- [${link.title}](${absoluteUrl(origin, link.path)}): ${link.description} (\`${link.type}\`)`);
    lines.push('');
    if (section.id === 'mcp') {
      lines.push(
        'Tools:',
        '',
        ...hub.mcp.tools.map((tool) => `- \`${tool.name}\`${tool.scope ? ` (OAuth scope \`${tool.scope}\`)` : ''}: ${tool.description}`),
        '',
      );
      lines.push('Connect a client:', '');
      for (const way of hub.mcp.connect)
        lines.push(`${way.title}:`, '', `\`\`\`${way.lang === 'shellscript' ? 'sh' : way.lang}`, way.code, '```', '');
    }
  }
  return lines.join('\n');
}
