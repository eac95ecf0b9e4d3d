/**
 * Site paths: one place that knows where every page, twin and well-known document lives.
 * @module
 */

/** Articles per blog listing page: 12 fills every row of a grid of 2, 3 or 4 columns (10 left one card alone on a row of 3). */
export const ARTICLES_PER_PAGE = 12;

export const paths = {
  home: '/',
  blog: '/blog',
  blogPage: (page: number): string => (page <= 1 ? '/blog' : `/blog/page/${page}`),
  category: (slug: string): string => `/blog/category/${slug}`,
  /** A tag's listing; the tag's URL slug comes from {@link tagSlug}. */
  tag: (tag: string): string => `/blog/tag/${tagSlug(tag)}`,
  /** The home page in one language: English at the root (stable), Chinese under /zh. */
  langHome: (lang: 'zh' | 'en'): string => (lang === 'zh' ? '/zh' : '/'),
  /**
   * The listing of both languages' articles in a language's chrome, and its later pages: English at
   * /blog (stable), Chinese under /zh/blog/all, so "All" never takes a Chinese reader to English chrome.
   */
  blogAll: (lang: 'zh' | 'en', page = 1): string =>
    lang === 'en' ? (page <= 1 ? '/blog' : `/blog/page/${page}`) : page <= 1 ? '/zh/blog/all' : `/zh/blog/all/page/${page}`,
  /** The listing of one language's articles, and its later pages. */
  langBlog: (lang: 'zh' | 'en', page = 1): string => (page <= 1 ? `/${lang}/blog` : `/${lang}/blog/page/${page}`),
  /** The contact page in one language: English at /contact (stable), Chinese under /zh. */
  langContact: (lang: 'zh' | 'en'): string => (lang === 'zh' ? '/zh/contact' : '/contact'),
  /** The search page in one language: English at /search (stable), Chinese under /zh. */
  langSearch: (lang: 'zh' | 'en'): string => (lang === 'zh' ? '/zh/search' : '/search'),
  /** The feed of one language's articles (/rss.xml carries both). */
  langRss: (lang: 'zh' | 'en'): string => `/${lang}/rss.xml`,
  /** The generated Open Graph image of a page (1200×630 PNG). */
  ogImage: (pagePath: string): string => `/og${pagePath === '/' ? '/index' : pagePath.replace(/\/+$/, '')}.png`,
  article: (slug: string): string => `/blog/${slug}`,
  solutions: '/solutions',
  solution: (slug: string): string => `/solutions/${slug}`,
  products: '/products',
  product: (slug: string): string => `/products/${slug}`,
  search: '/search',
  contact: '/contact',
  contactThanks: '/contact/thanks',
  langContactThanks: (lang: 'zh' | 'en'): string => (lang === 'zh' ? '/zh/contact/thanks' : '/contact/thanks'),
  /** The solutions listing in one language: English at /solutions (stable), Chinese under /zh. */
  langSolutions: (lang: 'zh' | 'en'): string => (lang === 'zh' ? '/zh/solutions' : '/solutions'),
  /** The products listing in one language: English at /products (stable), Chinese under /zh. */
  langProducts: (lang: 'zh' | 'en'): string => (lang === 'zh' ? '/zh/products' : '/products'),
  /** A product's page in one language: English at /products/<slug> (stable), Chinese under /zh. */
  langProduct: (lang: 'zh' | 'en', slug: string): string => (lang === 'zh' ? `/zh/products/${slug}` : `/products/${slug}`),
  /** The glossary in one language: English at /glossary (stable), Chinese under /zh. */
  langGlossary: (lang: 'zh' | 'en'): string => (lang === 'zh' ? '/zh/glossary' : '/glossary'),
  /** The developers hub in one language: English at /developers (stable), Chinese under /zh. */
  langDevelopers: (lang: 'zh' | 'en'): string => (lang === 'zh' ? '/zh/developers' : '/developers'),
  /** The API reference's overview: every operation by group, linking each operation's page. */
  apiDocs: '/docs/api',
  /** One operation's page of the API reference (`slug` from the operationId, publish/reference/reference.ts). */
  apiOperation: (slug: string): string => `/docs/api/${slug}`,
  /** The whole API reference on one page (print, find in page, agents that read one page). */
  apiAll: '/docs/api/all',
  /** The developers hub: API reference, MCP, auth.md, llms.txt and the agent skills on one page. */
  developers: '/developers',
  openApi: '/openapi.json',
  robots: '/robots.txt',
  sitemap: '/sitemap.xml',
  /** The same site map in markdown: every listed page, grouped by section (a14y's sitemap.md). */
  sitemapMarkdown: '/sitemap.md',
  llms: '/llms.txt',
  llmsFull: '/llms-full.txt',
  /** One language's llms.txt; {@link paths.langLlmsSection} its sectioned parts when the list outgrows one file. */
  langLlms: (lang: 'zh' | 'en'): string => `/${lang}/llms.txt`,
  langLlmsSection: (lang: 'zh' | 'en', section: string): string => `/${lang}/llms/${section}.txt`,
  rss: '/rss.xml',
  mcp: '/mcp',
  mcpServerCard: '/mcp/server-card',
  /** The MCP Registry's server.json for this deploy (what `mcp-publisher publish` uploads). */
  mcpServerJson: '/.well-known/mcp/server.json',
  /** The A2A v1.0 JSON-RPC endpoint (POST) and its agent card (RFC 8615 well-known URI, A2A §8.2). */
  a2a: '/a2a',
  agentCard: '/.well-known/agent-card.json',
  health: '/health',
  /** The HTTP API's base: the api-catalog anchor of the API that /openapi.json describes. */
  api: '/api',
  apiSearch: '/api/search',
  /** An enquiry (the contact form's API: POST). */
  apiContact: '/api/contact',
  /** Feedback on a page (the submit_feedback tool's HTTP form; the form at the end of each article posts here). */
  apiFeedback: '/api/feedback',
  authMd: '/auth.md',
  apiCatalog: '/.well-known/api-catalog',
  aiCatalog: '/.well-known/ai-catalog.json',
  /** ARD 0.91 renamed the AI Catalog path; both serve the same bytes. */
  ard: '/.well-known/ard.json',
  agentSkills: '/.well-known/agent-skills/index.json',
  agentSkill: (name: string): string => `/.well-known/agent-skills/${name}/SKILL.md`,
  /** The legacy skills index the `skills` CLI (`npx skills add <url>`) falls back to: `files` as plain paths. */
  legacySkills: '/.well-known/skills/index.json',
  legacySkill: (name: string): string => `/.well-known/skills/${name}/SKILL.md`,
  /** Web Bot Auth: the public keys that sign this site's outbound requests. */
  httpMessageSignaturesDirectory: '/.well-known/http-message-signatures-directory',
} as const;

/**
 * Where a page whose chrome speaks `pageLang` is shown in the chrome of `lang`: the page itself when
 * the languages agree, else the same path under `/<lang>` (`/solutions/x` in Chinese chrome is
 * `/zh/solutions/x`). Documents, categories and tags exist once at their stable path, in their own
 * language's chrome; a reader of the other language reaches them through this prefix, so every page
 * a reader can reach from a page in their language keeps their language's chrome.
 */
export function inChrome(lang: 'zh' | 'en', path: string, pageLang: 'zh' | 'en'): string {
  return lang === pageLang ? path : `/${lang}${path === '/' ? '' : path}`;
}

/**
 * The same section in `lang`, for the language switch of a page without a translation: a blog page
 * leads to the other language's blog, a product to the products, the API reference to the developers
 * hub, anything else to the home page (`/zh/blog/tag/x` → `/en/blog`, `/products/x` → `/zh/products`).
 */
export function sectionIn(lang: 'zh' | 'en', path: string): string {
  const section = path.replace(/^\/(zh|en)(?=\/|$)/, '').split('/')[1] ?? '';
  switch (section) {
    case 'blog':
      return paths.langBlog(lang);
    case 'solutions':
      return paths.langSolutions(lang);
    case 'products':
      return paths.langProducts(lang);
    case 'developers':
    case 'docs':
      return paths.langDevelopers(lang);
    case 'contact':
      return paths.langContact(lang);
    case 'search':
      return paths.langSearch(lang);
    default:
      return paths.langHome(lang);
  }
}

/**
 * A tag's URL segment: lower case, spaces and punctuation to single hyphens; Chinese stays Chinese
 * (`vLLM` -> `vllm`, `麒麟 OS` -> `麒麟-os`).
 */
export function tagSlug(tag: string): string {
  let slug = TAG_SLUGS.get(tag);
  if (slug === undefined) {
    slug =
      tag
        .normalize('NFKC')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, '-')
        .replace(/^-+|-+$/g, '') || 'tag';
    // A site has a few hundred tags, asked for by every card and tag list of every page (BENCHMARKS.md, "Build");
    // the bound keeps a long-lived function instance from growing on requests that name odd tags.
    if (TAG_SLUGS.size >= TAG_SLUGS_KEPT) TAG_SLUGS.clear();
    TAG_SLUGS.set(tag, slug);
  }
  return slug;
}

/** Tag slugs computed so far, at most {@link TAG_SLUGS_KEPT}. */
const TAG_SLUGS = new Map<string, string>();
const TAG_SLUGS_KEPT = 10_000;

/**
 * The markdown twin of a page path: `/` -> `/index.md`, `/blog/` -> `/blog.md`,
 * `/blog/x/index.html` -> `/blog/x.md`. Returns null for paths that name a file (`/a.css`).
 */
export function twinPathOf(pathname: string): string | null {
  if (pathname === '/' || pathname === '/index.html') return '/index.md';
  const page = pathname.replace(/\/index\.html$/, '').replace(/\/+$/, '');
  if (/\.[a-z0-9]+$/i.test(page.slice(page.lastIndexOf('/')))) return null;
  return `${page}.md`;
}

/** A path WHATWG URL parsing leaves as it is: unreserved characters, segments that do not start with a dot, no query. */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*\/?$/;
/** Each origin as the URL parser writes it (`HTTPS://A.example:443` → `https://a.example/`), by origin. */
const ORIGIN_HREFS = new Map<string, string>();

/** Joins the origin and a site path into an absolute URL. */
export function absoluteUrl(origin: string, path: string): string {
  // A build joins a few hundred thousand plain paths to one origin (every card, twin line and sitemap entry): those are
  // joined as text, which is what the parser would return; anything else goes through it
  // (docs/benchmarks-history.md, "Build, issue 25: cheaper per-build work").
  if (path.startsWith('/') && PLAIN_PATH.test(path)) {
    let base = ORIGIN_HREFS.get(origin);
    if (base === undefined) {
      base = new URL(`${origin}/`).href;
      if (ORIGIN_HREFS.size < 16) ORIGIN_HREFS.set(origin, base);
    }
    // An origin with a path (`https://a.example/base`) would not end in exactly one slash: let the parser join it.
    if (base.indexOf('/', base.indexOf('//') + 2) === base.length - 1) return base + path.slice(1);
  }
  return new URL(path, `${origin}/`).href;
}

/** Every OAuth and protected-resource path (RFC 8414, RFC 9728), beside the site's other paths. */
export const OAUTH_PATHS = {
  register: '/oauth/register',
  token: '/oauth/token',
  authorize: '/oauth/authorize',
  revoke: '/oauth/revoke',
  claim: '/oauth/claim',
  claimVerify: '/oauth/claim/verify',
  jwks: '/oauth/jwks.json',
  asMetadata: '/.well-known/oauth-authorization-server',
  /** The same metadata where OpenID Connect discovery looks (oauth4webapi's and openid-client's default). */
  oidcMetadata: '/.well-known/openid-configuration',
  prmRoot: '/.well-known/oauth-protected-resource',
  prmMcp: '/.well-known/oauth-protected-resource/mcp',
  authMd: paths.authMd,
  mcp: paths.mcp,
} as const;
