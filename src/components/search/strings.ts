/**
 * Interface text of the search page in both languages; the site-wide dictionary takes it over
 * later (same keys). `{n}` and `{q}` are filled in by the page script.
 * @module
 */
export type UiLang = 'zh' | 'en';

export const SEARCH_STRINGS = {
  en: {
    title: 'Search',
    lead: 'Search every article and solution, in Chinese or English: the best match comes first, and the results narrow by language and topic.',
    label: 'Search articles and solutions',
    submit: 'Search',
    noScript: 'Search needs JavaScript. Browse the blog, or ask the search API directly:',
    searching: 'Searching…',
    results: '{n} results for “{q}”',
    result: '1 result for “{q}”',
    none: 'No results for “{q}”. Try fewer or other words.',
    failed: 'Search is unavailable right now. Try again in a moment.',
    tooLong: 'That is too long to search: use at most {n} characters.',
    offline: 'Searching the offline index (the search service did not answer).',
    filters: 'Filter results',
    language: 'Language',
    category: 'Category',
    all: 'All',
    article: 'Article',
    solution: 'Solution',
    product: 'Product',
    page: 'Page',
    paletteTitle: 'Search the site',
    paletteClose: 'Close search',
    paletteHint: 'Enter: every result on the search page · ↑ ↓: move · Esc: close',
    paletteAll: 'See every result for “{q}”',
    topics: 'Browse by topic',
  },
  zh: {
    title: '搜索',
    lead: '搜索全部文章与解决方案，中英文均可：最相关的排在最前，结果可按语言与主题筛选。',
    label: '搜索文章与解决方案',
    submit: '搜索',
    noScript: '搜索需要 JavaScript。可以浏览博客，或直接调用搜索 API：',
    searching: '正在搜索…',
    results: '“{q}”共有 {n} 个结果',
    result: '“{q}”共有 1 个结果',
    none: '没有找到“{q}”的结果，请换个词或减少关键词。',
    failed: '搜索暂时不可用，请稍后再试。',
    tooLong: '搜索词太长：最多 {n} 个字符，请缩短后再试。',
    offline: '搜索服务未响应，正在使用离线索引。',
    filters: '筛选结果',
    language: '语言',
    category: '分类',
    all: '全部',
    article: '文章',
    solution: '解决方案',
    product: '产品',
    page: '页面',
    paletteTitle: '搜索本站',
    paletteClose: '关闭搜索',
    paletteHint: '回车：在搜索页查看全部结果 · ↑ ↓：移动 · Esc：关闭',
    paletteAll: '查看“{q}”的全部结果',
    topics: '按主题浏览',
  },
} as const satisfies Record<UiLang, Record<string, string>>;

export type SearchStrings = (typeof SEARCH_STRINGS)['en'];

/** Language names shown on the language facet: each in its own language. */
export const LANGUAGE_NAMES = { zh: '中文', en: 'English' } as const;
