/**
 * The words of the pages a person sees during OAuth (the consent page, the claim page, their error
 * pages) in Chinese and English; the page's language is chosen by the browser's Accept-Language
 * (src/core/content/i18n.ts `negotiateLang`). Reasons that explain a malformed request to a developer
 * stay in English: they name protocol parameters.
 * @module
 */
import { negotiateLang, type Lang } from '../content/i18n.ts';
import type { Scope } from './config.ts';
import { SCOPE_DESCRIPTIONS } from './config.ts';

const en = {
  htmlLang: 'en',
  authorizationFailed: 'Authorization failed',
  nothingSent: (site: string): string =>
    `Nothing was sent to the application. If you came here from an application, tell its developer; ${site} will not redirect a request it cannot verify.`,
  consentTitle: (client: string): string => `Authorize ${client}`,
  consentHeading: (client: string, site: string): string => `Allow “${client}” to use ${site}?`,
  unverifiedName: (client: string, site: string): string =>
    `The name “${client}” was chosen by whoever registered this client. ${site} has not verified it. Approve only if you started this from an application you trust.`,
  application: 'Application',
  unverified: 'unverified',
  clientId: 'Client ID',
  returnsTo: 'Returns to',
  resource: 'Resource',
  asksFor: 'It asks for',
  consentNote:
    'No account and no personal information is involved. Approving lets this application call the resource above with these permissions; each access token lasts one hour.',
  approve: 'Approve',
  deny: 'Deny',
  scope: (scope: Scope): string => SCOPE_DESCRIPTIONS[scope],
  claimTitle: 'Claim a registration',
  claimHeading: 'Claim an agent registration',
  claimIntro: (site: string): string => `An agent registered with ${site} and asked you to confirm it. Enter the code the agent shows you.`,
  code: 'Code',
  continue: 'Continue',
  badCode: 'That is not a valid code: 8 letters, like BCDF-GHJK.',
  tooManyTitle: 'Too many attempts',
  tooMany: (seconds: number): string => `Too many codes tried; wait ${seconds} seconds.`,
  busy: (seconds: number): string => `Too many codes checked at the same moment; try again in ${seconds} seconds. Nothing was counted.`,
  codeNotFoundTitle: 'Code not found',
  codeNotFound: 'This code is unknown, expired, replaced by a newer one, or already used.',
  claimConfirmTitle: 'Claim this registration?',
  claimConfirmHeading: 'Claim this agent registration?',
  checkCode: 'Check that your agent shows exactly this code:',
  agent: 'Agent',
  agentName: (name: string): string => `${name} (name chosen by the agent, unverified)`,
  registered: 'Registered',
  permissions: 'Its permissions (unchanged by claiming)',
  claimNote: (site: string): string =>
    `Claiming keeps this registration from expiring after 30 days without use. No account or personal information is involved; ${site} records only that the claim was approved. Deny if you do not recognise the agent or the code differs.`,
  claimFailed: 'Claim failed',
  claimExpired: 'This claim attempt has expired or was already answered. Ask the agent to start a new claim.',
  claimDeniedTitle: 'Claim denied',
  claimDenied: 'The agent will be told the claim was denied. Its registration is unchanged.',
  claimConflict: 'This registration was claimed by another attempt, replaced by a newer attempt, or no longer exists.',
  claimedTitle: 'Registration claimed',
  claimed: (name: string, id: string): string =>
    `“${name}” (<code>${id}</code>) is claimed: it stays registered as long as it is used at least once a year. The agent sees this on its next poll. You can close this page.`,
  chooseDecision: 'Choose Approve or Deny.',
  methodNotAllowed: 'Method not allowed',
};

export type PageText = typeof en;

const zh: PageText = {
  htmlLang: 'zh-CN',
  authorizationFailed: '授权失败',
  nothingSent: (site) => `没有向应用发送任何内容。如果您是从某个应用来到这里，请告知它的开发者；${site}不会重定向无法验证的请求。`,
  consentTitle: (client) => `授权 ${client}`,
  consentHeading: (client, site) => `允许“${client}”使用${site}？`,
  unverifiedName: (client, site) =>
    `“${client}”这个名称由注册此客户端的一方自行填写，${site}未做验证。只有当这是您从信任的应用发起的操作时才批准。`,
  application: '应用',
  unverified: '未验证',
  clientId: '客户端 ID',
  returnsTo: '返回地址',
  resource: '资源',
  asksFor: '申请的权限',
  consentNote: '此过程不涉及账号或个人信息。批准后，该应用可以用这些权限调用上面的资源；每个访问令牌有效期为一小时。',
  approve: '批准',
  deny: '拒绝',
  scope: (scope) =>
    (
      ({
        'articles:read': '搜索并阅读已发布的文章、解决方案和产品（本来就公开；让客户端表明身份）。',
        'content:export': '通过 MCP 工具 export_article_index 导出完整的文章索引（每篇文章的元数据和网址）。',
      }) as Record<Scope, string>
    )[scope] ?? SCOPE_DESCRIPTIONS[scope],
  claimTitle: '认领注册',
  claimHeading: '认领智能体注册',
  claimIntro: (site) => `有一个智能体在${site}注册，并请您确认。请输入该智能体显示的代码。`,
  code: '代码',
  continue: '继续',
  badCode: '代码无效：应为 8 个字母，例如 BCDF-GHJK。',
  tooManyTitle: '尝试次数过多',
  tooMany: (seconds) => `尝试的代码过多，请等待 ${seconds} 秒。`,
  busy: (seconds) => `同一时刻核对的代码过多，请 ${seconds} 秒后重试。本次未计入次数。`,
  codeNotFoundTitle: '未找到代码',
  codeNotFound: '此代码不存在、已过期、已被新代码取代或已被使用。',
  claimConfirmTitle: '认领此注册？',
  claimConfirmHeading: '认领此智能体注册？',
  checkCode: '请确认您的智能体显示的代码与下面完全一致：',
  agent: '智能体',
  agentName: (name) => `${name}（名称由智能体自行填写，未验证）`,
  registered: '注册时间',
  permissions: '它的权限（认领不会改变）',
  claimNote: (site) =>
    `认领后，此注册不会因 30 天未使用而过期。此过程不涉及账号或个人信息；${site}只记录认领已获批准。如果您不认识该智能体或代码不一致，请拒绝。`,
  claimFailed: '认领失败',
  claimExpired: '此认领请求已过期或已处理。请让智能体重新发起认领。',
  claimDeniedTitle: '已拒绝认领',
  claimDenied: '智能体会收到认领被拒绝的通知，它的注册保持不变。',
  claimConflict: '此注册已被其他请求认领、被更新的请求取代，或已不存在。',
  claimedTitle: '注册已认领',
  claimed: (name, id) =>
    `“${name}”（<code>${id}</code>）已认领：只要每年至少使用一次，它就会一直保持注册。智能体下次轮询时会看到结果。您可以关闭此页面。`,
  chooseDecision: '请选择批准或拒绝。',
  methodNotAllowed: '不允许的请求方法',
};

/** The page words for the language the browser prefers (English when it names neither). */
export function pageTextFor(req: Request): PageText {
  return pageText(negotiateLang(req.headers.get('accept-language')));
}

export function pageText(lang: Lang): PageText {
  return lang === 'zh' ? zh : en;
}
