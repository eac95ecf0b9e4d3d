/**
 * Which skill a plain-text message asks for, in Chinese or English, without a language model: an
 * LLM orchestrator talks to an A2A agent in text, so every skill on the card must be reachable that
 * way. Word patterns, checked in order: an explicit search ("search for …", "搜索 …") stays a search;
 * the product line ("Which products does Acme AI offer?", "有哪些产品"); the company and its contact
 * channels ("How do I contact Acme AI sales?", "怎么联系销售"); anything else is searched. A URL or
 * slug of an article is recognised before this (answer.ts). The patterns are deliberately narrow:
 * a misrouted search costs more than a search for a question the engine answers with related pages.
 * @module
 */

import type { FeedbackKind } from '../agent-tools/submit-feedback.ts';

/** What a text message asks for. `query` is the search text with a leading command phrase removed. */
export type TextIntent = { skill: 'list_products' } | { skill: 'get_company_info' } | { skill: 'search_articles'; query: string };

/** A leading request to search, and the words around the topic that are not the topic. */
const SEARCH_COMMAND_EN =
  /^\s*(?:please\s+)?(?:(?:search(?:\s+for)?|find(?:\s+me)?|look\s+(?:for|up))\s+(?:(?:some|the|all)\s+)?(?:(?:articles?|posts?|pages?|solutions?|docs?|documents?)\s+)?|show\s+me\s+(?:(?:some|the|all)\s+)?(?:articles?|posts?|pages?|solutions?|docs?|documents?)\s+)(?:(?:about|on|for|regarding|covering)\s+)?/i;
const SEARCH_COMMAND_ZH = /^\s*(?:请)?(?:帮我)?(?:搜索|搜一下|查找|检索|查一下|找一下|找)(?:一下)?(?:关于)?/;
const SEARCH_TAIL_ZH = /(?:的|相关的?)?(?:文章|内容|方案|资料)\s*$/;

const PRODUCTS: readonly RegExp[] = [
  /\b(?:which|what|list|show|all|your|their|the)\b[^.?!\n]{0,40}\bproducts?\b/i,
  /\bproducts?\b[^.?!\n]{0,40}\b(?:offer|offers|offered|sell|sells|provide|provides|available|line|portfolio|lineup|range)\b/i,
  /\bwhat\s+do\s+(?:you|they)\s+(?:sell|offer)\b/i,
  /(?:有哪些|有什么|哪些|什么|列出|全部|所有)[^。？?！!\n]{0,12}产品/,
  /产品(?:线|列表|目录|矩阵|清单|介绍)/,
  /(?:提供|卖)(?:什么|哪些)/,
];

const COMPANY: readonly RegExp[] = [
  /\b(?:contact(?!\s+cent(?:er|re)s?\b)|get\s+in\s+touch|reach\s+(?:you|them|us|the\s+\w+\s+team)|talk\s+to\s+(?:sales|someone)|speak\s+(?:to|with)\s+(?:sales|someone))\b/i,
  /\b(?:sales|press|media|partnerships?|support)\s+(?:team|email|e-mail|phone|contact|inquir(?:y|ies)|enquir(?:y|ies))\b/i,
  /\b(?:email\s+address|phone\s+number|office\s+address|headquarters|head\s+office)\b/i,
  /\bcompany\s+(?:info|information|profile|details|facts|overview)\b/i,
  /\b(?:about|who\s+(?:is|are))\s+(?:the\s+company|you|your\s+company)\b/i,
  /联系|联络|(?:销售|商务|媒体)(?:团队|电话|邮箱|联系方式|合作)|商务合作|合作洽谈|电话号码|邮箱地址|(?:公司|办公)地址|总部|公司(?:介绍|简介|信息|资料|概况)|关于(?:你们|贵公司|公司)|(?:你们|贵公司)是(?:谁|什么)/,
];

/** A message about the company by name: "Who is Acme AI?", "Tell me about Acme AI", "介绍一下艾克米智能". */
function namesTheCompany(text: string, names: readonly string[]): boolean {
  const lower = text.toLowerCase().replace(/[?？!！.。\s]+$/, '');
  return names.some((name) => {
    const n = name.toLowerCase();
    if (n === '' || !lower.includes(n)) return false;
    return (
      new RegExp(`^(?:who|what)\\s+(?:is|are)\\s+${escapeRegExp(n)}$`).test(lower) ||
      new RegExp(`^(?:tell\\s+me\\s+)?about\\s+${escapeRegExp(n)}$`).test(lower) ||
      new RegExp(`^(?:介绍一下|介绍|关于)${escapeRegExp(n)}$|^${escapeRegExp(n)}(?:是(?:谁|什么|做什么的)|的(?:介绍|简介))$`).test(lower)
    );
  });
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The skill `text` asks for. `companyNames` are the company's names (English and Chinese), so a
 * question about the company by name reaches its profile.
 */
export function intentOf(text: string, companyNames: readonly string[] = []): TextIntent {
  const command = SEARCH_COMMAND_EN.exec(text) ?? SEARCH_COMMAND_ZH.exec(text);
  if (command && command[0].trim() !== '') {
    const rest = text.slice(command[0].length).replace(SEARCH_TAIL_ZH, '').trim();
    if (rest !== '') return { skill: 'search_articles', query: rest };
  }
  if (PRODUCTS.some((pattern) => pattern.test(text))) return { skill: 'list_products' };
  if (COMPANY.some((pattern) => pattern.test(text)) || namesTheCompany(text, companyNames)) return { skill: 'get_company_info' };
  return { skill: 'search_articles', query: text };
}

/**
 * Feedback on a page: the message starts by saying so, with a colon, a preposition or the page
 * right after ("Feedback on <url>: …", "Report a problem with <url>: …", "Correction: …", "反馈：…",
 * "纠错 <url> …"), so that a search for "feedback loops" or "反馈循环" or a "report on …" stays a
 * search. `rest` is the message after that phrase (the page and the text).
 */
const FEEDBACK_COMMAND_EN =
  /^\s*(?:please\s+)?(?:(?:page\s+)?feedback|report(?:ing)?\s+(?:an?\s+)?(?:problem|error|issue|mistake|bug)|correction)(?:\s*[:：]|\s+(?:on|about|for|with|in)\b|\s+(?=https?:\/\/|\/))/i;
const FEEDBACK_COMMAND_ZH =
  /^\s*(?:请)?(?:页面|内容|意见|问题)?(?:反馈|纠错|报错|勘误|报告(?:问题|错误))(?:\s*[:：]|\s*(?=https?:\/\/|\/))/;

/** What the feedback says, from its words; a correction is `wrong` unless it says otherwise. */
const FEEDBACK_KIND_WORDS: readonly [FeedbackKind, RegExp][] = [
  [
    'not_helpful',
    /\bnot\s+(?:very\s+)?(?:helpful|useful)\b|\bunhelpful\b|\b(?:did\s*n[o']?t|does\s*n[o']?t|do\s*n[o']?t)\s+help\b|\bno\s+help\b|没(?:有)?(?:什么)?帮助|没用|无用/gi,
  ],
  [
    'missing',
    /\b(?:missing|lacks?|lacking|does\s*n[o']?t\s+(?:say|mention|cover|explain))\b|缺少|缺失|没有(?:提到|说明|介绍)|未(?:提及|说明)/gi,
  ],
  [
    'outdated',
    /\b(?:outdated|out\s+of\s+date|obsolete|no\s+longer\s+(?:true|correct|accurate|works?|valid))\b|过时|已过期|不再(?:适用|有效|准确)/gi,
  ],
  ['helpful', /\b(?:helpful|useful|thank(?:s|\s+you))\b|有帮助|很有用|有用|谢谢/gi],
];
/** A negation shortly before a word ("nothing here is outdated", "不是过时"): that word does not say the kind. */
const NEGATED_BEFORE =
  /(?:\b(?:not|no|nothing|never|neither|nor|without|is\s*n't|are\s*n't|was\s*n't|is\s+not)\b[^.;!?。；！？]{0,30}|[不没无非][^。；！？]{0,3})$/i;

function feedbackKindOf(text: string): FeedbackKind {
  for (const [kind, words] of FEEDBACK_KIND_WORDS) {
    for (const match of text.matchAll(words)) {
      // The words of not_helpful carry their own negation.
      if (kind === 'not_helpful' || !NEGATED_BEFORE.test(text.slice(0, match.index))) return kind;
    }
  }
  return 'wrong';
}

/** Feedback the text gives, or undefined when it does not start as feedback. */
export function feedbackIntentOf(text: string): { kind: FeedbackKind; rest: string } | undefined {
  const command = FEEDBACK_COMMAND_EN.exec(text) ?? FEEDBACK_COMMAND_ZH.exec(text);
  if (!command) return undefined;
  const rest = text.slice(command[0].length).trim();
  return { kind: feedbackKindOf(rest), rest };
}
