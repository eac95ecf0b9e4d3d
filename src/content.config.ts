/**
 * Content collections: every page, twin, feed, search index and MCP answer is built from these.
 * The content folder defaults to ./content; CONTENT_DIR points the build at another folder
 * (benchmark corpora, broken-content fixtures in tests). Markdown bodies and their HTML are kept
 * beside Astro's content store, not in it (src/astro/content-bodies.ts).
 */
import { existsSync } from 'node:fs';
import { defineCollection, reference } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { dataFile, reporting } from './astro/content-errors.ts';
import { bodiesBesideTheStore, CACHE_DIR } from './astro/content-bodies.ts';
import { parseBuildConfig } from './core/config.ts';

const CONTENT_DIR = parseBuildConfig(process.env).contentDir;

/**
 * An object schema that refuses fields it does not define, naming each one and the fields it
 * allows (`.strict()` reports only "Unrecognized key", under an empty path Astro prints as "****").
 */
function fields<Shape extends z.ZodRawShape>(shape: Shape) {
  const known = new Set(Object.keys(shape));
  const allowed = [...known].join(', ');
  // Unknown keys are kept (catchall) so the check below can name each under its own path.
  return z
    .object(shape)
    .catchall(z.unknown())
    .superRefine((data, ctx) => {
      for (const key of Object.keys(data)) {
        if (!known.has(key)) ctx.addIssue({ code: 'custom', path: [key], message: `unknown field "${key}": the fields are ${allowed}` });
      }
    });
}

/** YAML turns an unquoted 2026-03-01 into a Date; accept both and keep the canonical string. */
const isoDay = z
  .union([z.string(), z.date()])
  .transform((value) => (value instanceof Date ? value.toISOString().slice(0, 10) : value))
  .pipe(
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD')
      .refine(
        (day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day),
        'expected a real calendar date (YYYY-MM-DD)',
      ),
  );

/** A URL slug: an article's, a product's, a category's or a glossary term's address. */
const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SLUG_RULE = 'lowercase a-z, 0-9 and single hyphens';
const slug = z.string().regex(SLUG_PATTERN, `expected a URL slug: ${SLUG_RULE}`);
/** The ids of a data file whose ids are addresses (a category's page, a glossary term's anchor). */
const slugIds = { ids: { pattern: SLUG_PATTERN, says: `it is the page's address or anchor: ${SLUG_RULE}` } };
const lang = z.enum(['zh', 'en']);
const tags = z.array(z.string().min(1).max(40)).max(12).default([]);
/** A root-relative path on this site or an absolute http(s) URL. */
const link = z
  .string()
  .refine((v) => v.startsWith('/') || /^https?:\/\//.test(v), 'expected a root-relative path (/...) or an http(s) URL');

/**
 * An article's fields but its cover. Astro calls a schema written as a function (for `image()`) once per entry, so
 * what does not need `image()` is built here once: building every field's schema for each entry was a measurable part
 * of a large build (docs/benchmarks-history.md, "Build, issue 25: cheaper per-build work").
 */
const ARTICLE_FIELDS = {
  title: z.string().min(1).max(160),
  slug,
  category: reference('categories'),
  date: isoDay,
  updated: isoDay.optional(),
  excerpt: z.string().min(1).max(400),
  lang,
  tags,
  author: z.string().min(1).max(80).optional(),
  draft: z.boolean().default(false),
  /** Slug of the same article in the other language: pages link each other (hreflang, language switch). */
  translation: reference('articles').optional(),
};
const coverAlt = z.string().min(1).max(200);

const articles = defineCollection({
  loader: reporting(bodiesBesideTheStore(glob({ pattern: '**/*.{md,mdx}', base: `${CONTENT_DIR}/articles` }), CACHE_DIR)),
  schema: ({ image }) =>
    fields({
      ...ARTICLE_FIELDS,
      /** A cover image beside the file (`./cover.png`) and its text alternative. */
      cover: fields({ src: image(), alt: coverAlt }).optional(),
    }),
});

const solutions = defineCollection({
  loader: reporting(bodiesBesideTheStore(glob({ pattern: '**/*.{md,mdx}', base: `${CONTENT_DIR}/solutions` }), CACHE_DIR)),
  schema: fields({
    title: z.string().min(1).max(160),
    slug,
    category: reference('categories'),
    industry: z.string().min(1).max(60),
    date: isoDay,
    updated: isoDay.optional(),
    excerpt: z.string().min(1).max(400),
    lang,
    tags,
    products: z.array(reference('products')).default([]),
    draft: z.boolean().default(false),
  }),
});

const products = defineCollection({
  loader: reporting(bodiesBesideTheStore(glob({ pattern: '**/*.{md,mdx}', base: `${CONTENT_DIR}/products` }), CACHE_DIR)),
  schema: ({ image }) =>
    fields({
      name: z.string().min(1).max(80),
      slug,
      summary: z.string().min(1).max(300),
      summary_zh: z.string().min(1).max(150).optional(),
      url: link,
      features: z.array(z.string().min(1).max(200)).min(1).max(20),
      /** The features in Chinese, in the same order (the Chinese product page). */
      features_zh: z.array(z.string().min(1).max(100)).min(1).max(20).optional(),
      /**
       * A picture of the product or a diagram of how it fits (`./llm-gateway.svg`), with its text alternatives;
       * `src_zh` is the same picture with Chinese labels (`./llm-gateway.zh.svg`), shown on the Chinese pages.
       */
      image: fields({
        src: image(),
        src_zh: image().optional(),
        alt: z.string().min(1).max(300),
        alt_zh: z.string().min(1).max(150).optional(),
      }).optional(),
      order: z.number().int().default(100),
    }),
});

const categories = defineCollection({
  loader: reporting(dataFile(`${CONTENT_DIR}/categories.yaml`, slugIds)),
  schema: fields({
    name: z.string().min(1).max(60),
    name_zh: z.string().min(1).max(30),
    description: z.string().min(1).max(300),
    description_zh: z.string().min(1).max(200).optional(),
  }),
});

/** An absolute URL of any scheme (`mailto:`, `tel:`, `https:`) or a root-relative path on this site. */
const channelUrl = z
  .string()
  .refine((v) => v.startsWith('/') || URL.canParse(v), 'expected an absolute URL (https:, mailto:, tel:) or a root-relative path (/...)');

const contactChannel = fields({
  kind: z.enum(['email', 'phone', 'address', 'web', 'wechat', 'social']),
  label: z.string().min(1).max(60),
  /** The label on Chinese pages. */
  label_zh: z.string().min(1).max(30).optional(),
  value: z.string().min(1).max(200),
  /** The value on Chinese pages, where it differs (an address written the Chinese way). */
  value_zh: z.string().min(1).max(120).optional(),
  url: channelUrl.optional(),
});

/** An optional line of copy of at most `max` characters. */
const sentence = (max: number) => z.string().min(1).max(max).optional();

/** All brand facts live here, so a fork re-brands the site by editing content/company.yaml only. */
const company = defineCollection({
  loader: reporting(dataFile(`${CONTENT_DIR}/company.yaml`)),
  schema: fields({
    name: z.string().min(1).max(80),
    name_zh: z.string().min(1).max(40),
    legal_name: z.string().min(1).max(120),
    tagline: z.string().min(1).max(140),
    tagline_zh: z.string().min(1).max(80).optional(),
    /** What the company does, in a sentence or two: the home page's lead under the tagline. */
    pitch: z.string().min(20).max(400).optional(),
    pitch_zh: z.string().min(10).max(200).optional(),
    /** A short notice under the home page's hero (a placeholder brand says so); leave out for none. */
    disclaimer: z.string().min(1).max(200).optional(),
    disclaimer_zh: z.string().min(1).max(100).optional(),
    description: z.string().min(20).max(1200),
    description_zh: z.string().min(10).max(600),
    founded: z.number().int().min(1900).max(2100),
    headquarters: z.string().min(1).max(120),
    headquarters_zh: z.string().min(1).max(60).optional(),
    operator_attribution: z.string().min(1).max(300),
    operator_attribution_zh: z.string().min(1).max(150).optional(),
    contact: z.array(contactChannel).min(1),
    key_resources: z.array(fields({ title: z.string().min(1), url: link, description: z.string().min(1).max(300) })).default([]),
    /**
     * The sentences that name what the site writes about (blog and search descriptions, the search box's examples,
     * the contact page's lead, the feed's name); each left out gets a neutral one (src/core/content/site-copy.ts).
     */
    copy: fields({
      blog_lead: sentence(300),
      blog_lead_zh: sentence(150),
      blog_lang_lead: sentence(300),
      blog_lang_lead_zh: sentence(150),
      blog_all_description: sentence(300),
      search_description: sentence(300),
      search_description_zh: sentence(150),
      search_example: sentence(60),
      search_example_zh: sentence(40),
      contact_lead: sentence(300),
      contact_lead_zh: sentence(150),
      contact_description: sentence(300),
      products_description: sentence(200),
      products_description_zh: sentence(100),
      solutions_lead: sentence(300),
      solutions_lead_zh: sentence(150),
      solutions_description: sentence(300),
      glossary_description: sentence(300),
      glossary_description_zh: sentence(150),
      feed_name: sentence(40),
      feed_name_zh: sentence(20),
    }).optional(),
  }),
});

/**
 * The glossary (optional): one entry per term, its id the anchor on the page (`/glossary#rag`). Without the file the
 * site has no glossary page (src/core/publish/glossary.ts); a file added later needs the next build (or a restart of dev);
 * a file removed leaves no term behind (the stand-in loader empties the store).
 */
const GLOSSARY_FILE = `${CONTENT_DIR}/glossary.yaml`;
const glossary = defineCollection({
  loader: existsSync(GLOSSARY_FILE)
    ? reporting(dataFile(GLOSSARY_FILE, slugIds))
    : { name: 'no-glossary', load: async ({ store }) => store.clear() },
  schema: fields({
    term: z.string().min(1).max(80),
    term_zh: z.string().min(1).max(40),
    definition: z.string().min(1).max(400),
    definition_zh: z.string().min(1).max(200),
  }),
});

export const collections = { articles, solutions, products, categories, company, glossary };
