/**
 * The words of the `/ops/` page in Chinese and English (the vendor's first operators read Chinese).
 * Counter names (tools, methods, statuses) stay as counted: they are identifiers, the same in both.
 * @module
 */
import type { Lang } from '../content/i18n.ts';
import { MAX_RANGE_DAYS, type RangeProblem } from './range.ts';

const en = {
  title: 'Site usage',
  heading: 'Usage',
  rangeLine: (from: string, to: string, days: number): string => `${from} to ${to} · ${days} ${days === 1 ? 'day' : 'days'}, UTC`,
  from: 'From',
  to: 'To',
  show: 'Show',
  presets: 'Last',
  presetDays: (n: number): string => `${n} days`,
  rangeForm: 'Date range',
  languageNav: 'Language',
  switchLabel: '中文',
  summary: 'Summary',
  totalRequests: 'Requests',
  agentRequests: 'Agent requests',
  agentShare: (percent: string): string => `${percent} of requests`,
  mcpToolCalls: 'MCP tool calls',
  documentsRead: 'Twins and llms.txt read',
  errors: 'Errors',
  audienceChart: 'Requests by audience, per day',
  audienceChartDescription: (from: string, to: string): string =>
    `Stacked bars, one per UTC day from ${from} to ${to}; the exact numbers are in the table below the chart.`,
  dayTable: 'The numbers, day by day',
  day: 'Day',
  total: 'Total',
  mcpTools: 'MCP tools',
  topQueries: 'Top search queries',
  zeroQueries: 'Searches that found nothing',
  zeroQueriesNote: 'What readers and agents looked for and the site does not have: candidates for new articles.',
  queriesNote: (networks: number): string => `A query is listed once ${networks} networks asked it on the same day.`,
  query: 'Query',
  times: 'Times',
  counter: 'Counter',
  count: 'Count',
  share: 'Share',
  allCounters: 'Every counter',
  nothing: 'Nothing counted in this range.',
  feedback: 'Feedback',
  feedbackNone: 'No feedback in this range.',
  feedbackTable: 'The feedback, one row each',
  feedbackPage: 'Page',
  feedbackKind: 'Kind',
  feedbackText: 'Text',
  feedbackReceived: 'Received',
  footer:
    'Counts are per UTC day. Each function instance writes its counts at most once a minute and the hourly roll-up merges them, so today is a little behind. Nothing here identifies a person (docs/operations.md).',
  sections: {
    'requests.audience.': 'Requests by audience',
    'requests.surface.': 'Requests by surface',
    'requests.agent.': 'Agents by family',
    'documents.': 'Markdown twins and llms.txt',
    'mcp.method.': 'MCP methods',
    'mcp.tool.': 'MCP tools',
    'mcp.era.': 'MCP protocol eras',
    'a2a.skill.': 'A2A skills',
    'oauth.registration.': 'OAuth registrations',
    'oauth.token.': 'OAuth tokens by grant',
    'search.': 'Search',
    'contact.': 'Contact and feedback',
    'errors.': 'Errors by family and status',
  } as Record<string, string>,
  audiences: {
    browser: 'Browsers',
    'markdown-agent': 'Agents asking for markdown',
    'known-agent': 'Known agents',
    'verified-agent': 'Verified agents (Web Bot Auth)',
    unknown: 'Unknown clients',
  } as Record<string, string>,
  rangeProblem: (problem: RangeProblem): string => {
    switch (problem.kind) {
      case 'not-a-day':
        return `“${problem.value}” is not a day: choose a date (YYYY-MM-DD, UTC).`;
      case 'reversed':
        return `The start (${problem.from}) is after the end (${problem.to}).`;
      case 'too-long':
        return `${problem.days} days is too long a range: at most ${MAX_RANGE_DAYS} days.`;
    }
  },
  signInTitle: 'Operator sign-in',
  signIn:
    'This page is for the people who run this site. Sign in with any user name and the operator secret as the password: the value of OPS_SECRET in the site’s environment variables. If OPS_SECRET is not set, set it (at least 16 characters) and deploy again; docs/operations.md, “Seeing usage”, says more.',
  tooManyTitle: 'Too many attempts',
  tooMany: (minutes: number): string =>
    `Too many wrong secrets were tried from your network. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
  methodNotAllowed: 'Only GET and HEAD are answered here.',
};

export type OpsText = typeof en;

const zh: OpsText = {
  title: '网站使用情况',
  heading: '使用情况',
  rangeLine: (from, to, days) => `${from} 至 ${to} · 共 ${days} 天（UTC）`,
  from: '开始',
  to: '结束',
  show: '查看',
  presets: '最近',
  presetDays: (n) => `${n} 天`,
  rangeForm: '日期范围',
  languageNav: '语言',
  switchLabel: 'English',
  summary: '概览',
  totalRequests: '请求总数',
  agentRequests: '智能体请求',
  agentShare: (percent) => `占全部请求的 ${percent}`,
  mcpToolCalls: 'MCP 工具调用',
  documentsRead: 'Markdown 副本与 llms.txt 读取',
  errors: '错误',
  audienceChart: '按访问者类型统计的每日请求',
  audienceChartDescription: (from, to) => `堆叠柱状图，${from} 至 ${to} 每个 UTC 日一根柱子；准确数字见图下方的表格。`,
  dayTable: '每日数字',
  day: '日期',
  total: '合计',
  mcpTools: 'MCP 工具',
  topQueries: '热门搜索词',
  zeroQueries: '没有结果的搜索',
  zeroQueriesNote: '读者和智能体想找却没有找到的内容：可以写成新文章。',
  queriesNote: (networks) => `同一天内有 ${networks} 个网络搜索过的词才会列出。`,
  query: '搜索词',
  times: '次数',
  counter: '计数项',
  count: '次数',
  share: '占比',
  allCounters: '全部计数',
  nothing: '此范围内没有计数。',
  feedback: '反馈',
  feedbackNone: '此范围内没有反馈。',
  feedbackTable: '反馈明细',
  feedbackPage: '页面',
  feedbackKind: '类型',
  feedbackText: '内容',
  feedbackReceived: '收到时间',
  footer:
    '计数按 UTC 日统计。每个函数实例最多每分钟写入一次，每小时汇总一次，所以当天的数字会稍有延迟。这里没有任何能识别个人的信息（见 docs/operations.md）。',
  sections: {
    'requests.audience.': '按访问者类型的请求',
    'requests.surface.': '按接口的请求',
    'requests.agent.': '按智能体家族',
    'documents.': 'Markdown 副本与 llms.txt',
    'mcp.method.': 'MCP 方法',
    'mcp.tool.': 'MCP 工具',
    'mcp.era.': 'MCP 协议版本',
    'a2a.skill.': 'A2A 技能',
    'oauth.registration.': 'OAuth 注册',
    'oauth.token.': 'OAuth 令牌（按授权类型）',
    'search.': '搜索',
    'contact.': '联系与反馈',
    'errors.': '错误（按接口与状态码）',
  },
  audiences: {
    browser: '浏览器',
    'markdown-agent': '请求 Markdown 的智能体',
    'known-agent': '已知智能体',
    'verified-agent': '已验证的智能体（Web Bot Auth）',
    unknown: '未知客户端',
  },
  rangeProblem: (problem) => {
    switch (problem.kind) {
      case 'not-a-day':
        return `“${problem.value}”不是日期：请选择日期（YYYY-MM-DD，UTC）。`;
      case 'reversed':
        return `开始日期（${problem.from}）晚于结束日期（${problem.to}）。`;
      case 'too-long':
        return `${problem.days} 天的范围太长：最多 ${MAX_RANGE_DAYS} 天。`;
    }
  },
  signInTitle: '运营者登录',
  signIn:
    '此页面供网站运营者使用。请用任意用户名登录，密码为运营者密钥，即网站环境变量 OPS_SECRET 的值。如果尚未设置 OPS_SECRET，请设置（至少 16 个字符）后重新部署；详见 docs/operations.md 的“Seeing usage”一节。',
  tooManyTitle: '尝试次数过多',
  tooMany: (minutes) => `你的网络尝试了太多错误的密钥。请在 ${minutes} 分钟后再试。`,
  methodNotAllowed: '此处只响应 GET 和 HEAD 请求。',
};

const TEXTS: Record<Lang, OpsText> = { en, zh };

/** The page's words in `lang`. */
export function opsText(lang: Lang): OpsText {
  return TEXTS[lang];
}
