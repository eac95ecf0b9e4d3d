/**
 * Who the site's agent surfaces say they are, one source for the MCP server (`initialize`,
 * `server/discover`, the server card) and the A2A agent card, and the facts their examples are
 * written from. Every string derives from the company name in content/company.yaml.
 * @module
 */

/** Who the server says it is; every string derives from the company name in content/company.yaml. */
export interface ServerIdentity {
  /** Server card style name (`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`, docs/reference/mcp-oauth.md §9). */
  name: string;
  title: string;
  /** One line, at most 100 characters (the server card limit). */
  description: string;
  /** Guidance for the model (`initialize` / `server/discover` `instructions`). */
  instructions: string;
}

const DESCRIPTION_MAX_CHARS = 100;

/** The identity of the MCP server of the site called `siteName`. */
export function serverIdentity(siteName: string): ServerIdentity {
  const slug =
    siteName
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'site';
  const description = `Search and read ${siteName} articles, solutions, products and company facts.`;
  return {
    name: `${slug}/site`,
    title: `${siteName} site`,
    description:
      description.length <= DESCRIPTION_MAX_CHARS ? description : 'Search and read articles, solutions, products and company facts.',
    instructions: [
      `Access to the ${siteName} website: every tool only reads, but submit_feedback, which stores a note for the site owner that a page is wrong, outdated or missing something (or helped).`,
      'Use search_articles to find articles and solutions (Chinese and English), then get_article with a slug for the full markdown.',
      'list_products describes the product line; get_company_info gives the profile, contact channels and key resources.',
      'export_article_index pages through the whole article index and needs an OAuth access token with scope content:export.',
      'Every article, solution, product and category listing is also a resource: its markdown twin at its page URL plus .md (resources/templates/list; completion/complete fills the slug).',
      'Cite the page URLs returned by the tools when quoting content.',
    ].join(' '),
  };
}

/** What the examples of skills, cards and tools are written from (real slugs and queries, so they work when pasted). */
export interface SkillSource {
  origin: string;
  siteName: string;
  categorySlugs: readonly string[];
  /** A real article slug, so the examples work when pasted. */
  exampleSlug: string;
  /** A query that finds something here (a category name). */
  exampleQuery: string;
  /** The company's Chinese name and a Chinese query that finds something here: examples in both languages. */
  siteNameZh?: string;
  exampleQueryZh?: string;
}
