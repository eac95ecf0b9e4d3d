import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIXTURE_CATALOG } from '../../../tests/support/core-fixtures.ts';
import { siteCopy } from '../content/site-copy.ts';
import type { Article, Catalog, Document, Solution } from '../content/catalog.ts';
import { messages } from '../content/i18n.ts';
import { AGENT_ENTRY_POINTS } from './entry-points.ts';
import { developersHub } from './developers.ts';
import { tagSlug } from '../kernel/paths.ts';
import {
  cardLine,
  docCard,
  docCardMeta,
  HOME_LATEST_ARTICLES,
  readerFirst,
  relatedDocuments,
  relatedIndex,
  sitePages,
  TAG_PAGE_MIN_CARDS,
  tagListings,
  tagNeighbours,
  withNeighbours,
} from './pages.ts';

const article = (slug: string, lang: 'zh' | 'en', date: string, category: string, tags: string[]): Article => ({
  type: 'article',
  slug,
  title: slug,
  category,
  date,
  excerpt: slug,
  lang,
  tags,
  path: `/blog/${slug}`,
  markdown: slug,
  readingMinutes: 1,
});

describe('withNeighbours', () => {
  it('pairs each article with the next newer and older one in its own language, none past the ends', () => {
    const articles = [
      article('en-3', 'en', '2026-03-01', 'rag', []),
      article('zh-2', 'zh', '2026-02-15', 'rag', []),
      article('en-2', 'en', '2026-02-01', 'rag', []),
      article('zh-1', 'zh', '2026-01-15', 'rag', []),
      article('en-1', 'en', '2026-01-01', 'rag', []),
    ];
    const pairs = withNeighbours(articles).map((p) => [p.doc.slug, p.newer?.slug ?? null, p.older?.slug ?? null]);
    expect(pairs).toEqual([
      ['en-3', null, 'en-2'],
      ['zh-2', null, 'zh-1'],
      ['en-2', 'en-3', 'en-1'],
      ['zh-1', 'zh-2', null],
      ['en-1', 'en-2', null],
    ]);
  });
});

describe('relatedDocuments', () => {
  const doc = article('me', 'en', '2026-01-01', 'rag', ['vLLM', 'GPU']);
  const others = [
    article('same-tags', 'zh', '2025-01-01', 'engineering', ['vllm', 'gpu']),
    article('same-category', 'en', '2026-05-01', 'rag', []),
    article('one-tag', 'en', '2024-01-01', 'aigc', ['GPU']),
    article('unrelated', 'en', '2026-06-01', 'aigc', ['marketing']),
  ];
  it('ranks shared tags over the category, never lists unrelated pages or the page itself', () => {
    expect(relatedDocuments(doc, [doc, ...others]).map((d) => d.slug)).toEqual(['same-tags', 'one-tag', 'same-category']);
    expect(relatedDocuments(doc, others, 1).map((d) => d.slug)).toEqual(['same-tags']);
  });

  /** The rule written out plainly: score every other candidate, sort, cut (what the index must reproduce). */
  function scoreEveryCandidate(doc: Document, candidates: readonly Document[], limit: number): string[] {
    const tags = new Set(doc.tags.map(tagSlug));
    return candidates
      .map((c, order) => ({ c, order, shared: c.tags.filter((t) => tags.has(tagSlug(t))).length }))
      .filter(({ c, shared }) => c.slug !== doc.slug && (shared > 0 || c.category === doc.category))
      .map((r) => ({ ...r, score: r.shared * 3 + (r.c.category === doc.category ? 2 : 0) + (r.c.lang === doc.lang ? 1 : 0) }))
      .sort((a, b) => b.score - a.score || (a.c.date < b.c.date ? 1 : a.c.date > b.c.date ? -1 : a.order - b.order))
      .slice(0, limit)
      .map((r) => r.c.slug);
  }

  it('lists what scoring every candidate lists, in the same order, for any catalogue', () => {
    // Few tags, categories and dates, so ties, duplicate spellings and same-category runs are common.
    const doc = fc.record({
      lang: fc.constantFrom('zh' as const, 'en' as const),
      date: fc.constantFrom('2026-01-01', '2026-01-02', '2025-12-31'),
      category: fc.constantFrom('rag', 'agents', 'aigc'),
      tags: fc.array(fc.constantFrom('vLLM', 'vllm', 'GPU', 'gpu ', 'RAG', '私有化部署', 'MCP'), { maxLength: 5 }),
    });
    fc.assert(
      fc.property(fc.array(doc, { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 6 }), (specs, limit) => {
        const docs = specs.map((d, i) => article(`d${i}`, d.lang, d.date, d.category, d.tags));
        const related = relatedIndex(docs);
        for (const d of docs) expect(related(d, limit).map((r) => r.slug)).toEqual(scoreEveryCandidate(d, docs, limit));
        // A document that is not among the candidates (a solution's page looks among articles too).
        const outsider = article('outsider', 'en', '2026-01-01', 'rag', ['vllm', 'MCP']);
        expect(related(outsider, limit).map((r) => r.slug)).toEqual(scoreEveryCandidate(outsider, docs, limit));
      }),
      { numRuns: 300 },
    );
  });
});

describe('tagListings', () => {
  it('merges spellings of one tag, takes the majority language, and lists newest first', () => {
    const listings = tagListings({
      articles: [
        article('a', 'zh', '2026-02-01', 'rag', ['vLLM', '私有化部署']),
        article('b', 'zh', '2026-01-01', 'rag', ['vllm']),
        article('c', 'en', '2025-01-01', 'rag', ['VLLM']),
      ],
      solutions: [],
    });
    const vllm = listings.find((l) => l.slug === 'vllm')!;
    expect(vllm.tag).toBe('vLLM');
    expect(vllm.path).toBe('/blog/tag/vllm');
    expect(vllm.docs.map((d) => d.slug)).toEqual(['a', 'b', 'c']);
    expect(vllm.lang).toBe('zh');
    expect(listings.find((l) => l.tag === '私有化部署')?.path).toBe('/blog/tag/私有化部署');
  });
});

describe('sitePages', () => {
  it('has a Chinese home, per-language listings, the Chinese contact page and a page per tag, each with a twin', () => {
    const pages = sitePages(FIXTURE_CATALOG);
    const byPath = new Map(pages.map((p) => [p.path, p]));
    expect(byPath.get('/zh')?.lang).toBe('zh');
    expect(byPath.get('/zh/blog')?.lang).toBe('zh');
    expect(byPath.get('/en/blog')?.lang).toBe('en');
    expect(byPath.get('/zh/contact')?.markdown).toMatch(/^# 联系/m);
    expect(byPath.get('/zh/contact/thanks')?.listed).toBe(false);
    expect(pages.some((p) => p.path.startsWith('/blog/tag/'))).toBe(true);
    expect(new Set(pages.map((p) => p.path)).size).toBe(pages.length);
  });

  it('lists both languages in Chinese chrome too, Chinese first, with a twin (issue 28 stranger #2)', () => {
    const all = sitePages(FIXTURE_CATALOG).find((p) => p.path === '/zh/blog/all');
    expect(all).toMatchObject({ lang: 'zh', title: '博客', kind: 'list' });
    const first = FIXTURE_CATALOG.articles.filter((a) => a.lang === 'zh').sort((a, b) => b.date.localeCompare(a.date))[0]!;
    expect(all!.markdown).toContain(`${FIXTURE_CATALOG.origin}${first.path}.md`);
    if (FIXTURE_CATALOG.articles.some((a) => a.lang === 'en')) expect(all!.markdown).toMatch(/\[English\]|English/);
  });

  it('describes both listings of all languages in the site copy’s words, page by page', () => {
    const pages = sitePages(FIXTURE_CATALOG);
    const { company } = FIXTURE_CATALOG;
    const total = pages.filter((p) => p.path.startsWith('/zh/blog/all')).length;
    expect(pages.find((p) => p.path === '/zh/blog/all')!.description).toBe(siteCopy(company, 'zh').blogAllDescription(1, total));
    expect(pages.find((p) => p.path === '/blog')!.description).toBe(siteCopy(company, 'en').blogAllDescription(1, total));
    expect(siteCopy({ ...company, name_zh: '某公司' }, 'zh').blogAllDescription(2, 3)).toBe(
      `${siteCopy({ ...company, name_zh: '某公司' }, 'zh').blogLead}中文文章在前，英文文章标有语言（第 2/3 页）。`,
    );
  });
});

describe('docCardMeta', () => {
  const categories = [{ slug: 'rag', name: 'Retrieval', name_zh: '检索增强', description: '' }];
  const en = { ...article('agents', 'en', '2026-09-29', 'rag', []), readingMinutes: 5 };

  it("speaks the listing page's language: an English article on a zh listing has a Chinese date, category and time", () => {
    expect(docCardMeta(docCard(en, 'zh'), categories)).toEqual({
      language: 'English',
      date: '2026年9月29日',
      category: '检索增强',
      readingTime: '5 分钟',
    });
  });

  it('and an English page says it all in English, with no language badge for its own language', () => {
    expect(docCardMeta(docCard(en, 'en'), categories)).toEqual({ date: 'September 29, 2026', category: 'Retrieval', readingTime: '5 min' });
  });

  it("names a Chinese draft on an English page in English, and its language by the language's own name", () => {
    const zh = { ...article('zh-draft', 'zh', '2026-01-02', 'rag', []), draft: true };
    expect(docCardMeta(docCard(zh, 'en'), categories)).toMatchObject({ language: '中文', draft: 'Draft', date: 'January 2, 2026' });
  });
});

describe('docCard', () => {
  it('links into the reader’s chrome and says which reader it is for (the badge and hreflang come from these)', () => {
    const en = article('agents', 'en', '2026-01-01', 'rag', []);
    expect(docCard(en)).toMatchObject({ path: '/blog/agents', href: '/blog/agents', readerLang: 'en', lang: 'en' });
    // An article keeps its own page in the other chrome (a page per article per chrome would double the build).
    expect(docCard(en, 'zh')).toMatchObject({ href: '/blog/agents', readerLang: 'zh', lang: 'en' });
    const solution: Solution = { ...en, type: 'solution', slug: 'bank', path: '/solutions/bank', industry: 'Banking', products: [] };
    expect(docCard(solution, 'zh')).toMatchObject({ href: '/zh/solutions/bank', readerLang: 'zh' });
    expect(docCard(solution, 'en').href).toBe('/solutions/bank');
  });

  it('carries no body (cached pages key on their cards)', () => {
    expect(docCard(article('long', 'en', '2026-01-01', 'rag', []))).not.toHaveProperty('markdown');
  });
});

describe('page descriptions', () => {
  it('say at least 50 characters on every listed page the site words itself (the a14y meta-description check)', () => {
    const pages = sitePages(FIXTURE_CATALOG);
    // Documents, products and categories are described by their content (the fixture's are a few words).
    const ownWords = pages.filter(
      (p) => p.listed !== false && (p.kind === 'static' || p.kind === 'list') && !p.path.includes('/category/'),
    );
    expect(ownWords.length).toBeGreaterThan(20);
    expect(ownWords.filter((p) => p.description.length < 50).map((p) => `${p.path}: ${p.description}`)).toEqual([]);
    const listing = tagListings(FIXTURE_CATALOG).sort((a, b) => a.docs.length - b.docs.length)[0]!;
    expect(pages.find((p) => p.path === listing.path)!.description).toContain(listing.docs[0]!.title);
  });

  it('name the blog and the category where a category says too little', () => {
    const pages = sitePages(FIXTURE_CATALOG);
    const category = FIXTURE_CATALOG.categories[0]!;
    expect(pages.find((p) => p.path === `/blog/category/${category.slug}`)!.description).toBe(
      `${FIXTURE_CATALOG.company.name} blog, ${category.name}: ${category.description}`,
    );
    expect(pages.find((p) => p.path === `/zh/blog/category/${category.slug}`)!.description).toMatch(/^.+博客「.+」分类：/);
  });
});

describe('tag pages', () => {
  it('list the tags their documents share and, below few documents, related reading that is not their own', () => {
    const neighbours = tagNeighbours(FIXTURE_CATALOG);
    const listings = tagListings(FIXTURE_CATALOG);
    for (const listing of listings) {
      const { tags, related } = neighbours.get(listing.slug)!;
      expect(tags.map((t) => t.tag)).not.toContain(listing.tag);
      for (const t of tags) expect(listing.docs.filter((d) => d.tags.some((x) => tagSlug(x) === tagSlug(t.tag))).length).toBe(t.count);
      expect(related.filter((d) => listing.docs.includes(d))).toEqual([]);
      expect(related.length).toBeLessThanOrEqual(Math.max(0, TAG_PAGE_MIN_CARDS - listing.docs.length));
    }
    const thin = [...listings].sort((a, b) => a.docs.length - b.docs.length)[0]!;
    expect(thin.docs.length).toBeLessThan(TAG_PAGE_MIN_CARDS);
    expect(neighbours.get(thin.slug)!.related.length).toBeGreaterThan(0);
    const twin = sitePages(FIXTURE_CATALOG).find((p) => p.path === thin.path)!.markdown;
    for (const d of neighbours.get(thin.slug)!.related) expect(twin).toContain(`(${FIXTURE_CATALOG.origin}${d.path}.md)`);
  });
});

describe('the home page twin', () => {
  it('carries every content block of the home page: pitch, note, and each card with the words the card shows', () => {
    const home = sitePages(FIXTURE_CATALOG).find((p) => p.path === '/')!.markdown;
    const { company, categories } = FIXTURE_CATALOG;
    if (company.pitch) expect(home).toContain(company.pitch);
    if (company.disclaimer) expect(home).toContain(company.disclaimer);
    const latest = readerFirst(FIXTURE_CATALOG.articles, 'en').slice(0, HOME_LATEST_ARTICLES);
    for (const a of latest) expect(home).toContain(cardLine(FIXTURE_CATALOG.origin, a, 'en', categories));
    const zhArticle = FIXTURE_CATALOG.articles.find((a) => a.lang === 'zh')!;
    // A Chinese article on the English page: its badge names its language, the rest of the line speaks the page's (as its card does).
    expect(cardLine(FIXTURE_CATALOG.origin, zhArticle, 'en', categories)).toMatch(
      /^- \[.+\]\(.+\.md\) \(中文 · [A-Z][a-z]+ \d{1,2}, \d{4} · .+ · \d+ min\): /,
    );
  });
});

describe('the API reference twins', () => {
  const pages = sitePages(FIXTURE_CATALOG);
  const twin = (path: string): string => pages.find((p) => p.path === path)!.markdown;
  const { origin } = FIXTURE_CATALOG;

  it("name identifiers as the OpenAPI document does in their pages' descriptions (llms.txt, <meta>, the twins)", () => {
    const description = (path: string): string => pages.find((p) => p.path === path)!.description;
    expect(description('/docs/api/token')).toContain('client_credentials (HTTP Basic or client_secret_post), authorization_code');
    expect(description('/docs/api/claim')).toContain('{"claim_token"} starts a claim: a user_code and a verification_uri');
    expect(description('/docs/api/send-feedback')).toContain('A2A skill submit_feedback');
  });

  it('/docs/api.md is the overview as its page shows it: each operation one line linking its own twin, no details', () => {
    const overview = twin('/docs/api');
    const all = twin('/docs/api/all');
    const operations = pages.filter((p) => p.path.startsWith('/docs/api/') && p.path !== '/docs/api/all');
    expect(operations.length).toBeGreaterThan(10);
    for (const op of operations) expect(overview).toContain(`](${origin}${op.path}.md) \``);
    // The page's links: the OpenAPI document, the one-page reference's twin (the whole reference), the developers hub.
    expect(overview).toContain(`[OpenAPI 3.1 document](${origin}/openapi.json)`);
    expect(overview).toContain(`[All on one page](${origin}/docs/api/all.md)`);
    expect(overview).toContain(`[All developer resources](${origin}/developers.md)`);
    expect(overview).toContain('## Discovery for agents');
    // Each entry point as the page lists it: title (linked), how to call a POST-only one, its media type, what it is.
    for (const e of AGENT_ENTRY_POINTS)
      expect(overview).toContain(
        `[${e.title}](${origin}${e.path})${e.postOnly ? ` (\`POST ${e.path}\`)` : ''} \`${e.type}\`: ${e.description}`,
      );
    // The details (responses, example requests) are on the operations' pages and on the one-page reference, not here.
    expect(overview).not.toContain('## Responses');
    expect(overview).not.toContain('```sh');
    expect(all).toContain('#### Responses');
    expect(overview.length * 4).toBeLessThan(all.length);
    // The whole reference stays under AFDocs' page-size-markdown limit (what Claude Code and others cut): curl only, as its page.
    expect(all.length).toBeLessThanOrEqual(100_000);
    expect(all).toContain('```sh\ncurl');
    expect(all).not.toContain('```python');
    expect(all).toContain(`- [Overview](${origin}/docs/api.md)`);
    expect(twin(operations[0]!.path)).toContain('```python');
    // Each operation's twin points at the whole reference, which is the one-page twin.
    expect(twin(operations[0]!.path)).toContain(`- Whole reference: ${origin}/docs/api/all.md`);
  });
});

describe('the contact twins', () => {
  const origin = FIXTURE_CATALOG.origin;
  const catalog = {
    ...FIXTURE_CATALOG,
    company: {
      ...FIXTURE_CATALOG.company,
      contact: [
        {
          kind: 'email' as const,
          label: 'Sales',
          label_zh: '销售咨询',
          value: 'sales@acme-ai.example',
          url: 'mailto:sales@acme-ai.example',
        },
        {
          kind: 'address' as const,
          label: 'Headquarters',
          label_zh: '公司总部',
          value: '1 Example Road, Beijing',
          value_zh: '北京市示例路 1 号',
        },
        {
          kind: 'web' as const,
          label: 'Contact form',
          label_zh: '在线咨询表单',
          value: 'Contact form',
          value_zh: '本站在线咨询表单',
          url: `${origin}/contact`,
        },
      ],
    },
  };
  const pages = sitePages(catalog);
  const twin = (path: string): string => pages.find((p) => p.path === path)!.markdown;

  it('/zh/contact.md speaks Chinese: the channels by their Chinese labels and values, the form on the Chinese page (s8b L5a)', () => {
    const zh = twin('/zh/contact');
    expect(zh).toContain('- 销售咨询: [sales@acme-ai.example](mailto:sales@acme-ai.example)');
    expect(zh).toContain('- 公司总部: 北京市示例路 1 号');
    expect(zh).toContain(`- 在线咨询表单: [本站在线咨询表单](${origin}/zh/contact#enquiry)`);
    expect(zh).toContain(`## ${messages('zh').sendEnquiry}`);
    expect(zh).not.toMatch(/Sales:|Headquarters|Contact form/);
  });

  it('/contact.md leads with what the page says, lists the form and links the form on its page (s8b L5b)', () => {
    const en = twin('/contact');
    expect(en).toContain(`> ${siteCopy(catalog.company, 'en').contactLead}`);
    expect(en).not.toContain(catalog.company.tagline);
    expect(en).toContain(`## ${messages('en').sendEnquiry}`);
    expect(en).toContain(`- Contact form: [Contact form](${origin}/contact#enquiry)`);
    expect(en).toContain('- Headquarters: 1 Example Road, Beijing');
    // The enquiry operation the twin sends agents to has a twin of its own.
    const reference = /\(see the \[API reference\]\((\S+)\.md\)\)/.exec(en)![1]!;
    expect(pages.map((p) => `${origin}${p.path}`)).toContain(reference);
  });
});

describe('the products listing twins', () => {
  it('carry each card as the page shows it: name, summary and the first three features, in the page language (s8b L5c)', () => {
    const [first, ...rest] = FIXTURE_CATALOG.products;
    const product = {
      ...first!,
      summary_zh: '中文简介',
      features: ['Routing', 'Budgets', 'Keys', 'Audit log'],
      features_zh: ['路由', '预算', '密钥', '审计日志'],
    };
    const catalog = { ...FIXTURE_CATALOG, products: [product, ...rest] };
    const pages = sitePages(catalog);
    const twin = (path: string): string => pages.find((p) => p.path === path)!.markdown;
    const { origin, company } = catalog;
    expect(twin('/products')).toContain(`> ${company.tagline}`);
    expect(twin('/products')).toContain(
      `- [${product.name}](${origin}/products/${product.slug}.md): ${product.summary}\n  - Routing\n  - Budgets\n  - Keys\n`,
    );
    expect(twin('/zh/products')).toContain(
      `- [${product.name}](${origin}/zh/products/${product.slug}.md): 中文简介\n  - 路由\n  - 预算\n  - 密钥\n`,
    );
    for (const path of ['/products', '/zh/products']) expect(twin(path)).not.toMatch(/Audit log|审计日志/);
    // A product without features in Chinese shows its English ones on the Chinese listing, as its card does.
    expect(twin('/zh/products')).toContain(`\n  - ${rest[0]!.features[0]}`);
  });
});

describe('the home twins', () => {
  const catalog = {
    ...FIXTURE_CATALOG,
    company: {
      ...FIXTURE_CATALOG.company,
      pitch: 'We run the stack on your GPUs.',
      pitch_zh: '我们在您的 GPU 上运行整套系统。',
      disclaimer: 'A placeholder brand.',
      disclaimer_zh: '占位品牌，纯属虚构。',
      description: 'Acme AI is a placeholder brand for a reference website.',
      description_zh: '艾克米智能（Acme AI）是用于参考网站的占位品牌。',
    },
  };
  const pages = sitePages(catalog);
  const twin = (path: string): string => pages.find((p) => p.path === path)!.markdown;
  const { origin, company } = catalog;

  it('say what the home page says in its language: pitch, actions, note, each section with its link (s8b L5d)', () => {
    const en = twin('/');
    expect(en).toContain(
      `${company.pitch}\n\n- [Talk to us](${origin}/contact.md)\n- [Read the blog](${origin}/blog.md)\n\n${company.disclaimer}`,
    );
    expect(en).toContain(`## Latest articles\n\n[All articles](${origin}/blog.md)`);
    expect(en).toContain(`## Products\n\n[All products](${origin}/products.md)`);
    expect(en).toContain(`## Solutions\n\n[All solutions](${origin}/solutions.md)`);
    // The page shows neither description: not the English one under the pitch, not the Chinese one on the English page.
    expect(en).not.toContain(company.description_zh);
    expect(en).not.toContain(company.description);
    const zh = twin('/zh');
    expect(zh).toContain(
      `${company.pitch_zh}\n\n- [联系我们](${origin}/zh/contact.md)\n- [阅读博客](${origin}/zh/blog.md)\n\n${company.disclaimer_zh}`,
    );
    expect(zh).not.toContain(company.description_zh);
    // The Chinese home links the products in Chinese chrome, as its cards do.
    const product = catalog.products[0]!;
    expect(zh).toContain(`- [${product.name}](${origin}/zh/products/${product.slug}.md)`);
  });
});

describe('the twins of a translated article', () => {
  it('name the translation as the page does, both directions (s8b L5e)', () => {
    const en = { ...article('edge-notes', 'en', '2026-03-01', 'rag', []), title: 'Edge caching notes', translation: 'edge-notes-zh' };
    const zh = { ...article('edge-notes-zh', 'zh', '2026-03-01', 'rag', []), title: '边缘缓存笔记', translation: 'edge-notes' };
    const catalog = { ...FIXTURE_CATALOG, articles: [en, zh, ...FIXTURE_CATALOG.articles] };
    const pages = sitePages(catalog);
    const twin = (path: string): string => pages.find((p) => p.path === path)!.markdown;
    const { origin } = catalog;
    expect(twin('/blog/edge-notes')).toContain(`- 中文: [边缘缓存笔记](${origin}/blog/edge-notes-zh.md)\n`);
    expect(twin('/blog/edge-notes-zh')).toContain(`- English: [Edge caching notes](${origin}/blog/edge-notes.md)\n`);
    // An article without a translation names none.
    const alone = FIXTURE_CATALOG.articles.find((a) => !a.translation)!;
    expect(twin(alone.path)).not.toMatch(/^- (中文|English): /m);
  });
});

describe('the listing twins', () => {
  it('carry each card with the words it shows and lead as their pages do (blog, category and solutions listings)', () => {
    const pages = sitePages(FIXTURE_CATALOG);
    const twin = (path: string): string => pages.find((p) => p.path === path)!.markdown;
    const { origin, company, categories, articles, solutions } = FIXTURE_CATALOG;
    const listings: [path: string, lang: 'en' | 'zh', docs: readonly Document[], lead: string][] = [
      ['/blog', 'en', readerFirst(articles, 'en'), siteCopy(company, 'en').blogLead],
      ['/en/blog', 'en', articles.filter((a) => a.lang === 'en'), siteCopy(company, 'en').blogLangLead],
      ['/zh/blog', 'zh', articles.filter((a) => a.lang === 'zh'), siteCopy(company, 'zh').blogLangLead],
      ['/solutions', 'en', readerFirst(solutions, 'en'), siteCopy(company, 'en').solutionsLead],
      ['/zh/solutions', 'zh', readerFirst(solutions, 'zh'), siteCopy(company, 'zh').solutionsLead],
    ];
    for (const category of categories) {
      const items = articles.filter((a) => a.category === category.slug);
      listings.push([`/blog/category/${category.slug}`, 'en', readerFirst(items, 'en'), category.description]);
      listings.push([
        `/zh/blog/category/${category.slug}`,
        'zh',
        readerFirst(items, 'zh'),
        category.description_zh ?? category.description,
      ]);
    }
    for (const [path, lang, docs, lead] of listings) {
      const markdown = twin(path);
      expect(markdown, path).toContain(`\n> ${lead}\n`);
      const lines = docs.map((d) => cardLine(origin, d, lang, categories));
      expect(lines.length, path).toBeGreaterThan(0);
      // Every card, in the page's order.
      const at = lines.map((line) => markdown.indexOf(`${line}\n`));
      expect(at.filter((i) => i < 0).length, `${path}: cards missing`).toBe(0);
      expect(
        [...at].sort((a, b) => a - b),
        path,
      ).toEqual(at);
    }
  });
});

describe('the thank-you twins', () => {
  it('lead and link as the page after an enquiry does, in its language', () => {
    const pages = sitePages(FIXTURE_CATALOG);
    const { origin, company } = FIXTURE_CATALOG;
    const en = pages.find((p) => p.path === '/contact/thanks')!.markdown;
    const zh = pages.find((p) => p.path === '/zh/contact/thanks')!.markdown;
    expect(en).toContain(`> ${messages('en').thanksLead(company.name)}\n`);
    expect(en).toContain(`- [Read the blog](${origin}/blog.md)\n- [Home](${origin}/index.md)`);
    expect(zh).toContain(`> ${messages('zh').thanksLead(company.name_zh)}\n`);
    expect(zh).toContain(`- [阅读博客](${origin}/zh/blog.md)\n- [首页](${origin}/zh.md)`);
  });
});

describe('the developers hub twins', () => {
  it('carry each card as the page shows it (title, what it is, media type), and the Chinese page’s notice', () => {
    const pages = sitePages(FIXTURE_CATALOG);
    const { origin, company } = FIXTURE_CATALOG;
    const en = pages.find((p) => p.path === '/developers')!.markdown;
    const zh = pages.find((p) => p.path === '/zh/developers')!.markdown;
    const hub = developersHub(origin, company.name, siteCopy(company, 'en').feedName);
    for (const link of hub.sections.flatMap((s) => s.links))
      expect(en).toContain(`- [${link.title}](${new URL(link.path, origin).href}): ${link.description} (\`${link.type}\`)`);
    expect(zh).toContain(`\n${messages('zh').developersInEnglish}\n`);
  });
});

describe('the product twins', () => {
  it('carry the page’s call to action (the form with the product chosen, what happens next), in each language', () => {
    const pages = sitePages(FIXTURE_CATALOG);
    const { origin } = FIXTURE_CATALOG;
    const product = FIXTURE_CATALOG.products[0]!;
    const en = pages.find((p) => p.path === `/products/${product.slug}`)!.markdown;
    const zh = pages.find((p) => p.path === `/zh/products/${product.slug}`)!.markdown;
    expect(en).toContain(`[Ask about ${product.name}](${origin}/contact?product=${product.slug}): ${messages('en').productCtaLead}`);
    expect(zh).toContain(`[咨询 ${product.name}](${origin}/zh/contact?product=${product.slug}): ${messages('zh').productCtaLead}`);
  });
});

describe('a fork', () => {
  // The original site's subject matter (private LLM deployment, agents, AIGC, GPUs): a fork whose content/ never
  // mentions it must not say it on any page, description or twin (stranger s10c, finding 1).
  const OLD_TOPICS =
    /private LLM|AIGC|API gateway|AI-industry|your hardware|own hardware|KV cache|LoRA|vLLM|私有化部署|大模型网关|AI 行业|自有硬件|金融、政务|硬件和时间/;
  const fork: Catalog = {
    ...FIXTURE_CATALOG,
    company: { ...FIXTURE_CATALOG.company, name: 'Borealis Data', name_zh: '北极光数据', tagline: 'CDC pipelines.' },
    glossary: undefined,
  };

  it('says nothing about topics its content never wrote about', () => {
    expect(JSON.stringify(fork)).not.toMatch(OLD_TOPICS);
    // The API reference pages are left out: their examples are the OpenAPI document's (src/core/publish/openapi.ts).
    const pages = sitePages(fork).filter((p) => !p.path.startsWith('/docs/api/'));
    for (const page of pages) {
      expect(page.description, page.path).not.toMatch(OLD_TOPICS);
      expect(page.markdown, page.path).not.toMatch(OLD_TOPICS);
    }
  });

  it('has no glossary page when its content defines no terms, and one per language when it does', () => {
    expect(sitePages(fork).filter((p) => p.path.endsWith('/glossary'))).toEqual([]);
    expect(
      sitePages(FIXTURE_CATALOG)
        .filter((p) => p.path.endsWith('/glossary'))
        .map((p) => p.path),
    ).toEqual(['/glossary', '/zh/glossary']);
  });
});
