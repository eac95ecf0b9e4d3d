/**
 * The developers hub in Chinese (`/zh/developers`): the hub's own words translated, keyed by section
 * id and link path, laid over the English hub that developers.ts builds. What has no translation here
 * (a link added later, the tools' and skills' descriptions, which come from their registries) stays
 * English and is marked so on the page (`lang="en"`); developers-zh.test.ts lists what is covered.
 * @module
 */
import type { DevelopersHub, HubLink, HubSection } from './developers.ts';
import { paths } from '../kernel/paths.ts';

/** Section titles and introductions, by section id. */
const SECTIONS_ZH: Readonly<Record<string, { title: string; intro: string | ((endpoint: string, feedName: string) => string) }>> = {
  'http-api': {
    title: 'HTTP API',
    intro: (_, feedName) =>
      `搜索文章库、读取${/^[\x21-\x7e]/.test(feedName) ? ' ' : ''}${feedName}、提交咨询。公开接口，无需密钥，允许跨域（CORS）。`,
  },
  mcp: {
    title: 'MCP 服务器',
    intro: (endpoint) => `${endpoint} 上基于 Streamable HTTP 的模型上下文协议（MCP）：用于搜索、阅读和列出内容的工具。公开工具无需令牌。`,
  },
  auth: { title: '智能体授权', intro: '智能体可匿名注册（RFC 7591）并获取 OAuth 令牌，之后可由人认领该注册。' },
  llms: { title: '面向大模型', intro: '每个页面都有 Markdown 版本：在路径后加 `.md`，或在请求中带上 `Accept: text/markdown`。' },
  skills: { title: '智能体技能', intro: '智能体可加载的分步指南（SKILL.md 文件，附摘要值列表）。' },
};

/** Link titles (where they are words, not names) and descriptions, by link path. */
const LINKS_ZH: Readonly<Record<string, { title?: string; description: string }>> = {
  [paths.apiDocs]: {
    title: 'API 参考',
    description: '每个接口的参数、数据结构、各种响应的示例，以及 curl、JavaScript 和 Python 请求示例。',
  },
  [paths.openApi]: { title: 'OpenAPI 3.1 描述', description: '用于生成客户端，或导入你的 API 工具。' },
  [paths.apiCatalog]: { title: 'API 目录', description: 'RFC 9727 链接集：各个 API 及其描述、文档与状态。' },
  [paths.mcpServerCard]: { title: 'MCP 服务器卡片', description: '名称、版本、传输方式与协议版本。' },
  [`${paths.apiDocs}#mcp`]: { title: 'API 参考中的 MCP', description: '该端点的每种状态与 JSON-RPC 错误，附示例。' },
  // The same link once the reference has a page per operation.
  [`${paths.apiDocs}/mcp`]: { title: 'API 参考中的 MCP', description: '该端点的每种状态与 JSON-RPC 错误，附示例。' },
  [paths.authMd]: { description: '完整流程：注册、获取令牌、调用受保护工具、撤销。' },
  '/.well-known/oauth-authorization-server': {
    title: '授权服务器元数据',
    description: 'RFC 8414：所有端点、授权方式、权限范围与 agent_auth 信息。',
  },
  '/.well-known/oauth-protected-resource/mcp': { title: '受保护资源元数据', description: 'MCP 服务器的 RFC 9728 元数据。' },
  [paths.llms]: { description: '面向大模型的站点地图，链接每个页面的 Markdown 版本。' },
  [paths.llmsFull]: { description: '所有文章、解决方案与产品的全文，合为一个文件。' },
  [paths.aiCatalog]: { title: 'AI 目录', description: 'MCP 服务器、HTTP API 与内容，附查询示例。' },
  [paths.agentSkills]: { title: '技能索引', description: '每个技能及其 sha256 摘要。' },
};

/** The hub's own title and summary in Chinese. */
const HUB_ZH = {
  title: '开发者',
  summary: (siteName: string): string =>
    `基于${siteName}开发：带 OpenAPI 描述的 HTTP API、面向 AI 智能体的 MCP 服务器、无需账号的智能体 OAuth 授权，以及供大模型读取的全站 Markdown。`,
  connect: {
    'Claude Code': 'Claude Code',
    'Cursor, Claude Desktop and other clients (mcpServers JSON)': 'Cursor、Claude Desktop 等客户端（mcpServers JSON）',
    'VS Code (.vscode/mcp.json)': 'VS Code（.vscode/mcp.json）',
    'MCP Inspector (choose Streamable HTTP, paste the URL)': 'MCP Inspector（选择 Streamable HTTP，粘贴地址）',
  } as Readonly<Record<string, string>>,
};

/** A hub text with whether it is the translation (`zh`) or the English original kept (`en`). */
export interface LocalizedHubLink extends HubLink {
  lang: 'zh' | 'en';
}
export interface LocalizedHubSection extends Omit<HubSection, 'links'> {
  links: LocalizedHubLink[];
}
export interface LocalizedHub extends Omit<DevelopersHub, 'sections'> {
  sections: LocalizedHubSection[];
}

/**
 * The hub with its words in Chinese where a translation exists; every other text marked English. `feedName` is the
 * Chinese name of the feed at /api/tweets (company.yaml `copy.feed_name_zh`).
 */
export function developersHubZh(hub: DevelopersHub, siteName: string, feedName: string): LocalizedHub {
  return {
    ...hub,
    title: HUB_ZH.title,
    summary: HUB_ZH.summary(siteName),
    sections: hub.sections.map((section) => ({
      ...section,
      ...(SECTIONS_ZH[section.id]
        ? {
            title: SECTIONS_ZH[section.id]!.title,
            intro: ((intro) => (typeof intro === 'function' ? intro(hub.mcp.endpoint, feedName) : intro))(SECTIONS_ZH[section.id]!.intro),
          }
        : {}),
      links: section.links.map((link) => {
        const zh = LINKS_ZH[link.path];
        return zh
          ? { ...link, title: zh.title ?? link.title, description: zh.description, lang: 'zh' as const }
          : { ...link, lang: 'en' as const };
      }),
    })),
    mcp: { ...hub.mcp, connect: hub.mcp.connect.map((way) => ({ ...way, title: HUB_ZH.connect[way.title] ?? way.title })) },
  };
}

/** Which section ids and link paths have a Chinese text (for the test that keeps the hub translated). */
export const TRANSLATED_HUB = { sections: Object.keys(SECTIONS_ZH), links: Object.keys(LINKS_ZH) };
