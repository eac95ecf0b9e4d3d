/**
 * The interface dictionary: every word of page chrome in Chinese and English, one typed table, used
 * by the Astro pages, the browser scripts (contact form, page actions), the no-JavaScript contact
 * answer and the OAuth consent and claim pages. A page's chrome speaks its content's language.
 * Runtime-neutral (no DOM, no Node): the scripts bundle it, the functions import it.
 * @module
 */
import type { Lang } from './catalog.ts';

export type { Lang };
export const LANGS: readonly Lang[] = ['en', 'zh'];

/** The BCP 47 tag for `<html lang>`, `hreflang`, `inLanguage` and Intl. */
export function langTag(lang: Lang): 'zh-CN' | 'en' {
  return lang === 'zh' ? 'zh-CN' : 'en';
}

/** Each language's name in itself: the label of a link into that language. */
export const LANG_NAMES: Readonly<Record<Lang, string>> = { en: 'English', zh: '中文' };

/** The other language (the language switch's target). */
export function otherLang(lang: Lang): Lang {
  return lang === 'zh' ? 'en' : 'zh';
}

/** A value or a function of a number (counts, minutes, seconds). */
type Counted = (n: number) => string;

const en = {
  skipToContent: 'Skip to content',
  /**
   * The accessible name of the link to llms.txt first in the header (AFDocs llms-txt-directive), whose
   * visible text is just "llms.txt" (it ends the name: WCAG 2.5.3); shown, like the skip link, when focused.
   */
  llmsDirective: 'Site index for AI agents: llms.txt',
  glossary: 'Glossary',
  glossaryTitle: 'Glossary',
  navMain: 'Main',
  navBlog: 'Blog',
  navSolutions: 'Solutions',
  navProducts: 'Products',
  navDevelopers: 'Developers',
  navSearch: 'Search',
  navContact: 'Contact',
  /** Label of the language switch: the name of the other language, in that language. */
  switchLabel: '中文',
  switchTitle: 'Read this site in Chinese',
  switchTitleTranslation: 'Read this article in Chinese',
  langName: 'English',
  footerDevelopers: 'Developers',
  footerSite: 'Site',
  footerFeeds: 'Feeds',
  apiReference: 'API reference',
  agentAuth: 'Agent authorization (auth.md)',
  developersHub: 'Developer hub',
  mcpServer: 'MCP server',
  agentSkills: 'Agent skills',
  rssAll: 'RSS, all articles',
  rssLang: 'RSS, English articles',
  sitemap: 'Sitemap',
  draft: 'Draft',
  draftNotice: 'Draft: shown by npm run dev only, never published.',
  published: 'Published',
  updated: 'Updated',
  minRead: ((n: number) => `${n} min read`) as Counted,
  minutes: ((n: number) => `${n} min`) as Counted,
  by: 'By',
  tags: 'Tags',
  category: 'Category',
  backToBlog: '← Blog',
  backToSolutions: '← Solutions',
  backToProducts: '← Products',
  moreArticles: 'More articles',
  newer: '← Newer',
  older: 'Older →',
  related: 'Related articles',
  onThisPage: 'On this page',
  sectionLink: 'Link to this section',
  pageActions: 'Page actions',
  copyPage: 'Copy page',
  copied: 'Copied',
  copyFailed: 'Copy failed',
  viewMarkdown: 'View as Markdown',
  openInChatGpt: 'Open in ChatGPT',
  openInClaude: 'Open in Claude',
  aiPrompt: (url: string): string => `Read ${url} and help me understand it. Answer my questions using that page as the source.`,
  copyCode: 'Copy',
  copyCodeLabel: 'Copy code to the clipboard',
  codeCopied: 'Copied',
  tableScroll: 'Scroll sideways to see the whole table',
  tableLabel: (n: number): string => `Table ${n}`,
  blogTitle: 'Blog',
  blogPageTitle: (page: number, total: number): string => `Blog, page ${page} of ${total}`,
  blogLangTitle: 'English articles',
  pageOf: (page: number, total: number): string => `Page ${page} of ${total}`,
  newerArticles: '← Newer articles',
  olderArticles: 'Older articles →',
  pagination: 'Pagination',
  categories: 'Categories',
  languageFilter: 'Language',
  allLanguages: 'All',
  noArticles: 'No articles here yet.',
  allArticles: '← All articles',
  tagTitle: (tag: string): string => `Tagged “${tag}”`,
  tagLead: (n: number): string => `${n} ${n === 1 ? 'page' : 'pages'} with this tag.`,
  relatedTags: 'Related tags',
  relatedReading: 'Related reading',
  latestArticles: 'Latest articles',
  allArticlesLink: 'All articles →',
  products: 'Products',
  allProducts: 'All products →',
  solutions: 'Solutions',
  allSolutions: 'All solutions →',
  talkToUs: 'Talk to us',
  readBlog: 'Read the blog',
  productsUsed: 'Products used',
  feedbackTitle: 'Was this page helpful?',
  feedbackYes: 'Yes',
  feedbackNo: 'No',
  feedbackReport: 'Report a problem with this page',
  feedbackKindLegend: 'What is the problem?',
  feedbackKind_wrong: 'Something is wrong',
  feedbackKind_outdated: 'It is outdated',
  feedbackKind_missing: 'Something is missing',
  feedbackTextLabel: 'What should we fix?',
  feedbackTextHint: 'A few sentences; no personal data, please. We read every report.',
  feedbackSend: 'Send report',
  feedbackSent: 'Thank you: your feedback was sent.',
  feedbackFailed: (perHour: number, maxChars: number) =>
    `Your feedback could not be sent. A report needs a few words of plain text, at most ${maxChars} characters; one network may send ${perHour} an hour.`,
  feedbackContact: 'Write to us instead',
  usedIn: 'Used in',
  features: 'Features',
  askAbout: (name: string): string => `Ask about ${name}`,
  productCtaLead: 'An engineer answers within one working day.',
  notFoundTitle: 'Page not found',
  notFoundLead: 'There is no page at this address. It may have moved: try the blog or search.',
  home: 'Home',
  // Contact page and form
  contactTitle: (company: string): string => `Contact ${company}`,
  channels: 'Channels',
  sendEnquiry: 'Send an enquiry',
  fieldName: 'Name',
  fieldEmail: 'Email',
  fieldCompany: 'Company',
  fieldProduct: 'Product',
  fieldMessage: 'Message',
  optional: '(optional)',
  productNone: 'Not sure yet',
  honeypot: 'Leave this empty',
  send: 'Send',
  sending: 'Sending…',
  limitNote:
    'To keep spam out, we accept one enquiry a minute from each network address. If you share an office network, a colleague may have just used it: wait a minute and send again.',
  errRequired: 'Please fill in this field.',
  errEmail: 'Please enter an email address like name@example.com.',
  errInvalid: 'Please check this field.',
  errProduct: 'Choose one of the listed products, or “Not sure yet”.',
  errSummary: (n: number): string => (n === 1 ? 'Please correct the field marked below.' : `Please correct the ${n} fields marked below.`),
  errLimited: (seconds: number): string =>
    `We received an enquiry from your network less than a minute ago. Please wait ${seconds} seconds and send again; nothing you typed is lost.`,
  errTooLarge: (maxChars: number): string =>
    `Your enquiry was too long to send, so it was not sent and its text could not be kept. Please write a message of at most ${maxChars.toLocaleString('en')} characters and send again, or write to us by email.`,
  errUnreadable: 'Your enquiry could not be read, so it was not sent. Please fill in the form again, or write to us by email.',
  errNetwork: 'Sending failed: check your connection and try again. Nothing you typed is lost.',
  errServer: (status: number): string =>
    `Sending failed on our side (error ${status}). Please try again in a moment, or write to us by email.`,
  sent: (reference: string): string =>
    `Thank you: your enquiry is received. Your reference is ${reference}. An engineer answers within one working day.`,
  thanksTitle: 'Thank you',
  thanksLead: (company: string): string =>
    `Your enquiry is received and stored. An engineer from ${company} answers within one working day.`,
  thanksReference: 'Your reference:',
  errorTitlePrefix: 'Error: ',
  // A document in the other language, inside this language's chrome (src/core/kernel/paths.ts inChrome).
  onlyInOtherLanguage: 'This page is written in Chinese; there is no English version yet.',
  // Shown, in the reader's language, on an article in the other language only, to a reader who came from this language's pages.
  articleOnlyInOtherLanguage: 'This article is written in Chinese only.',
  backToOwnBlog: 'Articles in English',
  apiReferenceOnlyInEnglish: 'The API reference is written in English only (its text is the OpenAPI description).',
  backToOwnDevelopers: 'Developers',
  dismissNotice: 'Close',
  productDetailsInEnglish: 'The product details below are written in English.',
  developersInEnglish: 'The references and guides linked here are written in English.',
  otherLanguageItems: 'In Chinese',
  moreInOtherLanguage: 'Chinese articles →',
  // Page actions (one "Copy page" button and a menu of the rest)
  moreActions: 'More ways to use this page',
  copyPageHint: 'Copy this page as Markdown for an LLM',
  viewMarkdownHint: 'The page as plain Markdown text',
  openInChatGptHint: 'Ask ChatGPT about this page',
  openInClaudeHint: 'Ask Claude about this page',
  // 404
  notFoundSuggestions: 'Pages with a similar address',
  notFoundSearch: 'Search the site',
  notFoundOther: '页面不存在？中文读者请前往中文首页。',
  // Contact: field-specific messages and the confirmation that replaces the form
  errRequiredField: (field: string): string =>
    field === 'name'
      ? 'Please enter your name, so we know whom to answer.'
      : field === 'email'
        ? 'Please enter your email address: the answer goes there.'
        : 'Please fill in this field.',
  errTooLongField: (field: string, max: number): string =>
    `Please shorten ${({ name: 'your name', email: 'the email address', company: 'the company name', message: 'the message' } as Record<string, string>)[field] ?? 'this field'} to at most ${max} characters.`,
  sentTitle: 'Enquiry received',
  sentWhat: 'What you sent',
  sendAnother: 'Send another enquiry',
} as const;

export type Messages = { [K in keyof typeof en]: (typeof en)[K] extends (...args: infer A) => string ? (...args: A) => string : string };

const zh: Messages = {
  skipToContent: '跳到正文',
  llmsDirective: '供 AI 智能体阅读的本站索引：llms.txt',
  // The a14y glossary check reads link text in English ("glossary"); the Chinese label carries both.
  glossary: '术语表（Glossary）',
  glossaryTitle: '术语表',
  navMain: '主导航',
  navBlog: '博客',
  navSolutions: '解决方案',
  navProducts: '产品',
  navDevelopers: '开发者',
  navSearch: '搜索',
  navContact: '联系我们',
  switchLabel: 'English',
  switchTitle: '阅读英文版网站',
  switchTitleTranslation: '阅读本文的英文版',
  langName: '中文',
  footerDevelopers: '开发者',
  footerSite: '网站',
  footerFeeds: '订阅',
  apiReference: 'API 参考',
  agentAuth: '智能体授权指南（auth.md）',
  developersHub: '开发者中心',
  mcpServer: 'MCP 服务器',
  agentSkills: '智能体技能',
  rssAll: 'RSS：全部文章',
  rssLang: 'RSS：中文文章',
  sitemap: '网站地图',
  draft: '草稿',
  draftNotice: '草稿：仅在 npm run dev 中显示，不会发布。',
  published: '发布于',
  updated: '更新于',
  minRead: (n) => `阅读约 ${n} 分钟`,
  minutes: (n) => `${n} 分钟`,
  by: '作者',
  tags: '标签',
  category: '分类',
  backToBlog: '← 博客',
  backToSolutions: '← 解决方案',
  backToProducts: '← 产品',
  moreArticles: '更多文章',
  newer: '← 较新',
  older: '较早 →',
  related: '相关文章',
  onThisPage: '本页目录',
  sectionLink: '本节链接',
  pageActions: '页面操作',
  copyPage: '复制页面',
  copied: '已复制',
  copyFailed: '复制失败',
  viewMarkdown: '查看 Markdown',
  openInChatGpt: '在 ChatGPT 中打开',
  openInClaude: '在 Claude 中打开',
  aiPrompt: (url) => `请阅读 ${url}，帮我理解这篇内容，并以该页面为依据回答我的问题。`,
  copyCode: '复制',
  copyCodeLabel: '复制代码',
  codeCopied: '已复制',
  tableScroll: '左右滑动查看完整表格',
  tableLabel: (n) => `表格 ${n}`,
  blogTitle: '博客',
  blogPageTitle: (page, total) => `博客（第 ${page}/${total} 页）`,
  blogLangTitle: '中文文章',
  pageOf: (page, total) => `第 ${page}/${total} 页`,
  newerArticles: '← 较新文章',
  olderArticles: '较早文章 →',
  pagination: '分页',
  categories: '分类',
  languageFilter: '语言',
  allLanguages: '全部',
  noArticles: '这里还没有文章。',
  allArticles: '← 全部文章',
  tagTitle: (tag) => `标签：${tag}`,
  tagLead: (n) => `共 ${n} 篇带有此标签的内容。`,
  relatedTags: '相关标签',
  relatedReading: '延伸阅读',
  latestArticles: '最新文章',
  allArticlesLink: '全部文章 →',
  products: '产品',
  allProducts: '全部产品 →',
  solutions: '解决方案',
  allSolutions: '全部方案 →',
  talkToUs: '联系我们',
  readBlog: '阅读博客',
  productsUsed: '使用的产品',
  feedbackTitle: '这篇内容对你有帮助吗？',
  feedbackYes: '有帮助',
  feedbackNo: '没有帮助',
  feedbackReport: '报告本页的问题',
  feedbackKindLegend: '是什么问题？',
  feedbackKind_wrong: '内容有误',
  feedbackKind_outdated: '内容已过时',
  feedbackKind_missing: '缺少内容',
  feedbackTextLabel: '需要改什么？',
  feedbackTextHint: '写几句话即可；请不要填写个人信息。每条反馈我们都会看。',
  feedbackSend: '提交反馈',
  feedbackSent: '谢谢，你的反馈已提交。',
  feedbackFailed: (perHour: number, maxChars: number) =>
    `反馈未能提交。报告问题需要写几句纯文本说明，最多 ${maxChars} 个字符；同一网络每小时最多提交 ${perHour} 条。`,
  feedbackContact: '改为联系我们',
  usedIn: '应用案例',
  features: '功能',
  askAbout: (name) => `咨询 ${name}`,
  productCtaLead: '工程师将在一个工作日内回复。',
  notFoundTitle: '页面不存在',
  notFoundLead: '这个地址没有页面，可能已经移动。可以去博客看看，或者搜索。',
  home: '首页',
  contactTitle: (company) => `联系${company}`,
  channels: '联系方式',
  sendEnquiry: '在线咨询',
  fieldName: '姓名',
  fieldEmail: '邮箱',
  fieldCompany: '公司',
  fieldProduct: '产品',
  fieldMessage: '留言',
  optional: '（选填）',
  productNone: '暂不确定',
  honeypot: '此项请留空',
  send: '提交',
  sending: '正在提交…',
  limitNote: '为防止垃圾信息，每个网络地址每分钟只接受一次咨询。如果您与同事共用办公网络，可能刚有人提交过：请稍等一分钟再提交。',
  errRequired: '请填写此项。',
  errEmail: '请输入有效的邮箱地址，例如 name@example.com。',
  errInvalid: '请检查此项。',
  errProduct: '请从列表中选择产品，或选择“暂不确定”。',
  errSummary: (n) => (n === 1 ? '请修改下面标出的一项。' : `请修改下面标出的 ${n} 项。`),
  errLimited: (seconds) => `不到一分钟前已收到来自您网络的咨询。请等待 ${seconds} 秒后再提交，您填写的内容不会丢失。`,
  errTooLarge: (maxChars) =>
    `咨询内容过长，未能提交，填写的内容也无法保留。请把留言控制在 ${maxChars} 个字符以内后重新提交，或直接发邮件联系我们。`,
  errUnreadable: '无法读取您提交的咨询，提交未成功。请重新填写表单，或直接发邮件联系我们。',
  errNetwork: '提交失败：请检查网络连接后重试，您填写的内容不会丢失。',
  errServer: (status) => `服务器出错（错误 ${status}），提交未成功。请稍后重试，或直接发邮件联系我们。`,
  sent: (reference) => `谢谢！我们已收到您的咨询，编号 ${reference}。工程师将在一个工作日内回复。`,
  thanksTitle: '提交成功',
  thanksLead: (company) => `我们已收到并保存您的咨询。${company}的工程师将在一个工作日内回复。`,
  thanksReference: '您的咨询编号：',
  errorTitlePrefix: '错误：',
  onlyInOtherLanguage: '本页只有英文版，暂无中文译文。',
  articleOnlyInOtherLanguage: '本文只有英文版，暂无中文译文。',
  backToOwnBlog: '看中文文章',
  apiReferenceOnlyInEnglish: 'API 参考只有英文版（内容来自 OpenAPI 描述）。',
  backToOwnDevelopers: '看中文开发者页面',
  dismissNotice: '关闭',
  productDetailsInEnglish: '下面的产品详细介绍暂时只有英文版。',
  developersInEnglish: '这里链接的接口参考与指南为英文。',
  otherLanguageItems: '英文内容',
  moreInOtherLanguage: '英文文章 →',
  moreActions: '更多页面操作',
  copyPageHint: '把本页复制为 Markdown，交给大模型',
  viewMarkdownHint: '以纯文本 Markdown 查看本页',
  openInChatGptHint: '向 ChatGPT 提问本页内容',
  openInClaudeHint: '向 Claude 提问本页内容',
  notFoundSuggestions: '地址相近的页面',
  notFoundSearch: '搜索本站',
  notFoundOther: 'Page not found? English readers: go to the English home page.',
  errRequiredField: (field) =>
    field === 'name' ? '请填写您的姓名，方便我们称呼您。' : field === 'email' ? '请填写邮箱地址，我们会通过邮件回复您。' : '请填写此项。',
  errTooLongField: (field, max) =>
    `${({ name: '姓名', email: '邮箱', company: '公司名称', message: '留言' } as Record<string, string>)[field] ?? '此项'}请缩短到 ${max} 个字符以内。`,
  sentTitle: '咨询已收到',
  sentWhat: '您提交的内容',
  sendAnother: '再提交一条咨询',
};

const DICTIONARIES: Record<Lang, Messages> = { en: en as Messages, zh };

/** The interface messages of one language. */
export function messages(lang: Lang): Messages {
  return DICTIONARIES[lang];
}

/**
 * The language switch's tooltip, decided here for every page: "Read this article in Chinese" only on an article
 * whose translation the switch opens; any other page (home, lists, search, contact, an untranslated article) is
 * the site in the other language.
 */
export function languageSwitchTitle(lang: Lang, page: { article: boolean; translated: boolean }): string {
  const t = messages(lang);
  return page.article && page.translated ? t.switchTitleTranslation : t.switchTitle;
}

/** One formatter per language: creating an Intl.DateTimeFormat costs ~100× formatting with one (a build formats every card's date). */
const DATE_FORMATS = new Map<Lang, Intl.DateTimeFormat>();

/** `YYYY-MM-DD` as a reader of `lang` writes it: "June 17, 2025" or "2025年6月17日". */
export function formatDate(day: string, lang: Lang): string {
  const key = `${lang} ${day}`;
  const known = FORMATTED_DATES.get(key);
  if (known !== undefined) return known;
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  let format = DATE_FORMATS.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(langTag(lang), { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
    DATE_FORMATS.set(lang, format);
  }
  // Every card of every listing formats its date: a build asks for the same few thousand days a hundred times each.
  if (FORMATTED_DATES.size >= FORMATTED_DATES_KEPT) FORMATTED_DATES.clear();
  const formatted = format.format(date);
  FORMATTED_DATES.set(key, formatted);
  return formatted;
}

/** Dates formatted so far, by language and day, at most {@link FORMATTED_DATES_KEPT}. */
const FORMATTED_DATES = new Map<string, string>();
const FORMATTED_DATES_KEPT = 20_000;

/**
 * The preferred supported language of an `Accept-Language` header (RFC 9110 §12.5.4: quality
 * values, `*`); `fallback` when it names neither Chinese nor English.
 */
export function negotiateLang(acceptLanguage: string | null | undefined, fallback: Lang = 'en'): Lang {
  if (!acceptLanguage) return fallback;
  let best: { lang: Lang; q: number } | undefined;
  for (const [index, part] of acceptLanguage.split(',').entries()) {
    const [range = '', ...params] = part.trim().split(';');
    const q = Number(
      params
        .map((p) => p.trim())
        .find((p) => p.startsWith('q='))
        ?.slice(2) ?? '1',
    );
    if (!(q > 0)) continue;
    const primary = range.trim().toLowerCase().split('-')[0];
    const lang: Lang | undefined = primary === 'zh' ? 'zh' : primary === 'en' ? 'en' : undefined;
    // Equal quality keeps the earlier entry (the header's order is the tie-break).
    if (lang && (!best || q > best.q)) best = { lang, q: q - index * 1e-9 };
  }
  return best?.lang ?? fallback;
}
