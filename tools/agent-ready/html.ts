/**
 * What the page-level checks read from an HTML document, parsed once per response with htmlparser2
 * (the parser cheerio uses; no DOM, no scripts run: what an agent that fetches without a browser sees).
 * @module
 */
import { findAll, findOne, getAttributeValue, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import type { Element } from 'domhandler';
import type { Fetched } from './http.ts';

/** A `<link>` or `<a>` as the checks read it. */
export interface HtmlLink {
  rels: string[];
  type: string;
  href: string;
  /** The visible text (anchors only). */
  text: string;
}

/** The facts the checks use, from one HTML document. */
export interface Html {
  lang: string;
  title: string;
  /** `<meta name|property="…" content>`: lower-case key → content (the first one wins). */
  meta: Map<string, string>;
  links: HtmlLink[];
  anchors: HtmlLink[];
  /** The text of every `<script type="application/ld+json">`. */
  jsonLd: string[];
  /** Tag names of h1-h6 in document order. */
  headings: string[];
  /** The text of the first `<h1>` (empty when none). */
  h1: string;
  /** Each `<pre><code>` block: the class tokens of `code` and its `pre`. */
  codeBlocks: string[][];
  /** Visible body text: scripts, styles, `<noscript>` and `<template>` removed, whitespace collapsed. */
  text: string;
  /** Length of the raw `<body>…</body>` markup (the whole document when there is no body tag). */
  bodyLength: number;
  /** Elements with `role="tabpanel"` (tabbed content an agent gets serialised). */
  tabPanels: Element[];
  /** `<meta http-equiv="refresh">` content, when present. */
  metaRefresh: string;
  /** Inline script text (to spot `location.href = …` redirects). */
  inlineScripts: string;
  /** Blocking overlays of the kinds the Agent Readability check names (consent platforms, open dialogs at body level). */
  interstitials: string[];
  /** `<input type="password">` present (a login form). */
  passwordInput: boolean;
  /**
   * The text of each content block (paragraph, list item, heading, table cell, preformatted block) inside
   * `<main>` (else `<body>` without `nav`, `header`, `footer` and `aside`): what a markdown twin should carry.
   */
  segments: string[];
}

const parsed = new WeakMap<Fetched, Html>();

const isElement = (node: unknown): node is Element =>
  (node as Element)?.type === 'tag' || (node as Element)?.type === 'script' || (node as Element)?.type === 'style';
const lower = (value: string | undefined): string => (value ?? '').trim().toLowerCase();
const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();
const HIDDEN_TEXT = new Set(['script', 'style', 'noscript', 'template']);
const CHROME = new Set(['nav', 'header', 'footer', 'aside']);
const SEGMENT_TAGS = new Set(['p', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'td', 'th', 'pre', 'blockquote', 'dt', 'dd']);

/** Content blocks under `nodes` (a block inside a block counts once, as its outermost block). */
function segmentsOf(nodes: Element['children'], out: string[]): string[] {
  for (const node of nodes) {
    if (!isElement(node) || HIDDEN_TEXT.has(node.name) || CHROME.has(node.name)) continue;
    if (SEGMENT_TAGS.has(node.name)) {
      const text = collapse(visibleText(node.children));
      if (text) out.push(text);
    } else segmentsOf(node.children, out);
  }
  return out;
}

/** Consent-platform markers (ids and classes) that mean a blocking overlay in the initial HTML. */
const CONSENT_MARKERS = [
  'onetrust-consent-sdk',
  'onetrust-pc-dark-filter',
  'CybotCookiebotDialog',
  'truste-consent-track',
  'truste_overlay',
  'truste_box_overlay',
  'cmpwrapper',
  'sp_message_container_1',
  'qc-cmp2-container',
];

/**
 * Elements that end a run of text: their content is set apart by white space, as a browser lays it out. Inline
 * elements (`<a>`, `<code>`, `<wbr>`, a highlighter's `<span>`s) join their text to their neighbours', as
 * `textContent` does: `私有<wbr>化` is one word, `<b>un</b>likely` too.
 */
const BLOCK_TAGS = new Set([
  ...SEGMENT_TAGS,
  'address',
  'article',
  'aside',
  'br',
  'caption',
  'details',
  'dialog',
  'div',
  'dl',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'header',
  'hgroup',
  'hr',
  'legend',
  'main',
  'nav',
  'ol',
  'section',
  'summary',
  'table',
  'tbody',
  'tfoot',
  'thead',
  'tr',
  'ul',
]);

/** Text of a node without the elements agents never read as content. */
function visibleText(nodes: Element['children']): string {
  let out = '';
  for (const node of nodes) {
    if (node.type === 'text') out += (node as unknown as { data: string }).data;
    else if (isElement(node) && !HIDDEN_TEXT.has(node.name)) {
      const text = visibleText(node.children);
      out += BLOCK_TAGS.has(node.name) ? ` ${text} ` : text;
    }
  }
  return out;
}

/** The HTML facts of a response (parsed once, then shared by every check that reads the same response). */
export function htmlOf(res: Fetched): Html {
  const cached = parsed.get(res);
  if (cached) return cached;
  const doc = parseDocument(res.text, { decodeEntities: true });
  const all = findAll((el) => isElement(el), doc.children);
  const byName = (name: string): Element[] => all.filter((el) => el.name === name);
  const html = byName('html')[0];
  const body = byName('body')[0];
  const meta = new Map<string, string>();
  for (const el of byName('meta')) {
    const key = lower(getAttributeValue(el, 'name') ?? getAttributeValue(el, 'property'));
    if (key && !meta.has(key)) meta.set(key, getAttributeValue(el, 'content') ?? '');
  }
  const linkOf = (el: Element): HtmlLink => ({
    rels: lower(getAttributeValue(el, 'rel')).split(/\s+/).filter(Boolean),
    type: lower(getAttributeValue(el, 'type')).split(';')[0]!.trim(),
    href: (getAttributeValue(el, 'href') ?? '').trim(),
    text: el.name === 'a' ? collapse(textContent(el)) : '',
  });
  const bodyStart = res.text.search(/<body[\s>]/i);
  const bodyEnd = res.text.search(/<\/body>/i);
  const bodyLength = bodyStart >= 0 ? (bodyEnd > bodyStart ? bodyEnd + 7 : res.text.length) - bodyStart : res.text.length;
  const headings = all.filter((el) => /^h[1-6]$/.test(el.name)).map((el) => el.name);
  const h1 = byName('h1')[0];
  const refresh = byName('meta').find((el) => lower(getAttributeValue(el, 'http-equiv')) === 'refresh');
  const interstitials: string[] = [];
  for (const el of all) {
    const id = getAttributeValue(el, 'id') ?? '';
    const classes = (getAttributeValue(el, 'class') ?? '').split(/\s+/);
    const marker = CONSENT_MARKERS.find((m) => m === id || classes.includes(m));
    if (marker) interstitials.push(marker);
    if (el.name === 'dialog' && getAttributeValue(el, 'open') !== undefined) interstitials.push('<dialog open>');
    if (lower(getAttributeValue(el, 'role')) === 'dialog' && el.parent && isElement(el.parent) && el.parent.name === 'body')
      interstitials.push('role="dialog" under <body>');
  }
  const result: Html = {
    lang: html ? (getAttributeValue(html, 'lang') ?? '').trim() : '',
    title: collapse(byName('title')[0] ? textContent(byName('title')[0]!) : ''),
    meta,
    links: byName('link').map(linkOf),
    anchors: byName('a').map(linkOf),
    jsonLd: byName('script')
      .filter((el) => lower(getAttributeValue(el, 'type')) === 'application/ld+json')
      .map((el) => textContent(el)),
    headings,
    h1: h1 ? collapse(textContent(h1)) : '',
    codeBlocks: byName('pre').flatMap((pre) => {
      const code = findOne((el) => el.name === 'code', pre.children);
      if (!code) return [];
      const classes = `${getAttributeValue(pre, 'class') ?? ''} ${getAttributeValue(code, 'class') ?? ''}`;
      return [classes.split(/\s+/).filter(Boolean)];
    }),
    text: collapse(visibleText((body ?? doc).children as Element['children'])),
    bodyLength,
    tabPanels: all.filter((el) => lower(getAttributeValue(el, 'role')) === 'tabpanel'),
    metaRefresh: refresh ? (getAttributeValue(refresh, 'content') ?? '') : '',
    inlineScripts: byName('script')
      .filter((el) => !getAttributeValue(el, 'src') && !lower(getAttributeValue(el, 'type')).includes('json'))
      .map((el) => textContent(el))
      .join('\n'),
    interstitials: [...new Set(interstitials)],
    passwordInput: byName('input').some((el) => lower(getAttributeValue(el, 'type')) === 'password'),
    segments: segmentsOf((byName('main')[0] ?? body ?? doc).children as Element['children'], []),
  };
  parsed.set(res, result);
  return result;
}

/** Text of an element without scripts and styles (tab panels, a page's main content). */
export function elementText(el: Element): string {
  return collapse(visibleText(el.children));
}

/** The text of every heading inside an element (tab panels). */
export function headingsIn(el: Element): string[] {
  return findAll((node) => /^h[1-6]$/.test(node.name), el.children).map((h) => collapse(textContent(h)));
}

/** Every JSON-LD node of a page: arrays and `@graph` flattened; blocks that do not parse are skipped. */
export function jsonLdNodes(html: Html): Record<string, unknown>[] {
  const nodes: Record<string, unknown>[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      const node = value as Record<string, unknown>;
      nodes.push(node);
      if (node['@graph']) walk(node['@graph']);
      for (const [key, child] of Object.entries(node)) if (key !== '@graph' && child && typeof child === 'object') walk(child);
    }
  };
  for (const block of html.jsonLd) {
    try {
      walk(JSON.parse(block));
    } catch {
      // A block that does not parse contributes no nodes; html.json-ld reports it.
    }
  }
  return nodes;
}

/** The `@type` values of a JSON-LD node (a string or an array of strings). */
export function typesOf(node: Record<string, unknown>): string[] {
  const type = node['@type'];
  return (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === 'string');
}
