/**
 * Deterministic generator of a synthetic bilingual technical corpus (40% zh, 50% en, 10% mixed)
 * for the search benchmark and for full-site builds at scale (search.md §8).
 *
 * As a library: `generateDocuments` yields in-memory `Document`s; `generateCorpus` also returns
 * the planted queries; `generateBenchQueries` gives a latency query mix.
 * As a CLI: writes a folder usable as CONTENT_DIR:
 *
 *     node bench/generate-corpus.ts --n 1000 --seed 42 --out bench/.corpus/1000
 *     CONTENT_DIR=bench/.corpus/1000 npx astro build
 *
 * @module
 */
import { copyFile, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Article, Lang, Solution } from '../src/core/content/catalog.ts';
import {
  EN_HEADINGS,
  EN_SENTENCES,
  EN_TITLES,
  INDUSTRIES,
  PRODUCT_SLUGS,
  TOPICS,
  ZH_HEADINGS,
  ZH_SENTENCES,
  ZH_TITLES,
  type Concept,
  type Topic,
} from './corpus-vocabulary.ts';
import { PLANTED_QUERIES, type PlantedDocSpec, type PlantedQuerySpec } from './planted-queries.ts';
import { answerHelpFromDoc } from '../scripts/usage.ts';

/** Generator options. */
export interface CorpusOptions {
  /** Number of documents (articles plus a few solutions). */
  n: number;
  seed: number;
}

/** A planted query resolved to document slugs. */
export interface PlantedQuery {
  id: string;
  lang: 'zh' | 'en' | 'mixed';
  query: string;
  note: string;
  target: string;
  distractors: string[];
}

/** A generated corpus. */
export interface Corpus {
  documents: (Article | Solution)[];
  planted: PlantedQuery[];
}

/** Shortest and longest body, in UTF-16 code units. */
const BODY_MIN_CHARS = 800;
const BODY_MAX_CHARS = 3_000;
/** Room for the last paragraph, which may end past the drawn target length. */
const BODY_OVERSHOOT_CHARS = 300;
/** Language mix: share of Chinese, English (the rest is mixed Chinese text with English passages). */
const ZH_SHARE = 0.4;
const EN_SHARE = 0.5;
/** Every SOLUTION_EVERY-th document is a solution. */
const SOLUTION_EVERY = 50;
/** Publication dates are spread over this range. */
const FIRST_DAY_MS = Date.UTC(2023, 0, 1);
const DATE_RANGE_DAYS = 1_400;
const DAY_MS = 86_400_000;
/** Each phrase of a planted document is repeated this many times in its body. */
const PLANTED_PHRASE_REPEATS = 3;
const EXCERPT_MAX_CHARS = 220;
const AUTHORS: Record<Lang, string[]> = {
  en: ['Platform team', 'Inference team', 'RAG team', 'Solutions team'],
  zh: ['平台团队', '推理团队', '算法团队', '解决方案团队'],
};

/** mulberry32: a small, fast, deterministic PRNG returning [0, 1). */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Random = () => number;
type Mode = 'zh' | 'en' | 'mixed';

const pick = <T>(rng: Random, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
const int = (rng: Random, min: number, max: number): number => min + Math.floor(rng() * (max - min + 1));
const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** The topic a document is about, plus what its sentences draw from. */
interface DocContext {
  rng: Random;
  mode: Mode;
  topic: Topic;
  concepts: Concept[];
  products: string[];
}

function contextFor(rng: Random, mode: Mode, topic: Topic): DocContext {
  const secondary = pick(rng, TOPICS);
  const concepts = shuffle(rng, topic.concepts).slice(0, int(rng, 4, 6));
  concepts.push(...shuffle(rng, secondary.concepts).slice(0, int(rng, 1, 2)));
  const products = shuffle(rng, topic.products).slice(0, int(rng, 3, 5));
  products.push(pick(rng, secondary.products));
  return { rng, mode, topic, concepts, products };
}

function shuffle<T>(rng: Random, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Fills `{c}`, `{C}`, `{c2}`, `{p}`, `{P}`, `{p2}`, `{n}`, `{m}`, `{pct}`, `{k}` for one language. */
function fill(ctx: DocContext, template: string, lang: Lang): string {
  const { rng } = ctx;
  // Distinct picks within one sentence ("balance X against Y" never pairs X with itself).
  const concepts = shuffle(rng, ctx.concepts);
  const products = shuffle(rng, ctx.products);
  const concept = (i: number): string => {
    const chosen = concepts[i % concepts.length]!;
    // Mixed documents sometimes name a concept in English inside Chinese text.
    if (lang === 'zh' && ctx.mode === 'mixed' && rng() < 0.3) return ` ${chosen.en} `;
    return lang === 'zh' ? spaceLatinEdges(chosen.zh) : chosen.en;
  };
  const n = int(rng, 2, 64);
  return template
    .replaceAll('{C}', () => capitalize(concept(0)))
    .replaceAll('{c2}', () => concept(1))
    .replaceAll('{c}', () => concept(0))
    .replaceAll('{P}', () => products[0]!)
    .replaceAll('{p2}', () => products[1 % products.length]!)
    .replaceAll('{p}', () => products[0]!)
    .replaceAll('{n}', String(n))
    .replaceAll('{m}', String(n * int(rng, 3, 40)))
    .replaceAll('{pct}', String(int(rng, 5, 60)))
    .replaceAll('{k}', String(int(rng, 3, 9)))
    .replace(/ {2,}/g, ' ')
    .replace(/^ | $/g, '')
    .replace(/ ([，。：；！？、])/g, '$1');
}

/** Chinese typesetting habit: a space between Han text and a Latin word at either edge. */
function spaceLatinEdges(text: string): string {
  return `${/^[A-Za-z0-9]/.test(text) ? ' ' : ''}${text}${/[A-Za-z0-9]$/.test(text) ? ' ' : ''}`;
}

function sentence(ctx: DocContext): string {
  const { rng, mode, topic } = ctx;
  const lang: Lang = mode === 'en' || (mode === 'mixed' && rng() < 0.35) ? 'en' : 'zh';
  if (rng() < 0.15) return lang === 'en' ? pick(rng, topic.en) : pick(rng, topic.zh);
  if (rng() < 0.06) {
    const command = `\`${pick(rng, topic.commands)}\``;
    return lang === 'en' ? `Run ${command} to reproduce this step.` : `执行 ${command} 即可复现这一步。`;
  }
  return fill(ctx, pick(rng, lang === 'en' ? EN_SENTENCES : ZH_SENTENCES), lang);
}

const joinSentences = (mode: Mode, sentences: string[]): string => sentences.join(mode === 'en' ? ' ' : '');

function codeBlock(ctx: DocContext): string {
  const { rng, topic } = ctx;
  if (rng() < 0.6) return ['```bash', pick(rng, topic.commands), '```'].join('\n');
  const product = pick(rng, ctx.products)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');
  return [
    '```yaml',
    `service: ${product}`,
    `replicas: ${int(rng, 2, 8)}`,
    `timeout_ms: ${int(rng, 5, 120) * 1000}`,
    `max_tokens: ${int(rng, 1, 32) * 1024}`,
    '```',
  ].join('\n');
}

/** A markdown body of roughly `targetChars`, with planted phrases mixed in. */
function body(ctx: DocContext, targetChars: number, planted: string[]): { markdown: string; lead: string } {
  const { rng, mode } = ctx;
  const headingLang: Lang = mode === 'en' ? 'en' : 'zh';
  const plantedSentences = planted.flatMap((phrase) =>
    Array.from({ length: PLANTED_PHRASE_REPEATS }, (_, i) => plantedSentence(mode, phrase, i)),
  );
  const blocks: string[] = [];
  let length = 0;
  let lead = '';
  let section = 0;
  const add = (block: string): void => {
    blocks.push(block);
    length += block.length + 2;
  };
  const done = (): boolean => length >= targetChars && plantedSentences.length === 0;
  const finish = (): { markdown: string; lead: string } => {
    // A body never ends on a heading.
    while (blocks.length > 1 && blocks.at(-1)!.startsWith('## ')) blocks.pop();
    return { markdown: `${blocks.join('\n\n')}\n`, lead };
  };
  while (!done()) {
    if (section > 0 || rng() < 0.5) add(`## ${fill(ctx, pick(rng, headingLang === 'en' ? EN_HEADINGS : ZH_HEADINGS), headingLang)}`);
    section++;
    for (let p = int(rng, 1, 3); p > 0 && !done(); p--) {
      const sentences = Array.from({ length: int(rng, 3, 6) }, () => sentence(ctx));
      if (plantedSentences.length > 0) sentences.splice(int(rng, 0, sentences.length), 0, plantedSentences.shift()!);
      const paragraph = joinSentences(mode, sentences);
      // Stay within BODY_MAX_CHARS unless planted sentences still have to go in.
      if (length >= BODY_MIN_CHARS && length + paragraph.length > BODY_MAX_CHARS && plantedSentences.length === 0) return finish();
      if (lead === '') lead = joinSentences(mode, sentences.slice(0, 2));
      add(paragraph);
    }
    if (done()) break;
    const extra = rng();
    if (extra < 0.2) {
      const items = shuffle(rng, ctx.concepts).slice(0, int(rng, 3, 5));
      add(items.map((concept) => `- ${mode === 'en' ? capitalize(concept.en) : concept.zh}`).join('\n'));
    } else if (extra < 0.35) {
      add(codeBlock(ctx));
    }
  }
  return finish();
}

function plantedSentence(mode: Mode, phrase: string, variant: number): string {
  const en = [
    'This article focuses on {x}.',
    'We describe how {x} works in practice.',
    'The key lesson about {x} is to measure before tuning.',
  ];
  const zh = ['本文重点讨论{x}。', '下面介绍{x}在实际项目中的做法。', '关于{x}，最重要的经验是先度量再优化。'];
  const template = (mode === 'en' ? en : zh)[variant % 3]!;
  return template.replace('{x}', /^[A-Za-z]/.test(phrase) && mode !== 'en' ? ` ${phrase} ` : phrase).replace(/ ([，。])/g, '$1');
}

/** Phrases of each planted target, lowercased: a background title never contains all of one set. */
const PLANTED_TITLE_PHRASES = PLANTED_QUERIES.map((spec) => spec.target.phrases.map((phrase) => phrase.toLowerCase()));
const MAX_TITLE_ATTEMPTS = 20;

/**
 * A background title. Titles that would cover a planted query completely are drawn again, so each
 * planted query has one intended best answer (its target) instead of an arbitrary near-duplicate.
 */
function title(ctx: DocContext): string {
  const lang: Lang = ctx.mode === 'en' ? 'en' : 'zh';
  let text = '';
  for (let attempt = 0; attempt < MAX_TITLE_ATTEMPTS; attempt++) {
    text = fill(ctx, pick(ctx.rng, lang === 'en' ? EN_TITLES : ZH_TITLES), lang).trim();
    const lower = text.toLowerCase();
    if (!PLANTED_TITLE_PHRASES.some((phrases) => phrases.every((phrase) => lower.includes(phrase)))) break;
  }
  return text;
}

function excerptOf(lead: string): string {
  return lead.length <= EXCERPT_MAX_CHARS ? lead : `${lead.slice(0, EXCERPT_MAX_CHARS - 1).trimEnd()}…`;
}

function dateOf(rng: Random): string {
  return new Date(FIRST_DAY_MS + int(rng, 0, DATE_RANGE_DAYS) * DAY_MS).toISOString().slice(0, 10);
}

function modeOf(rng: Random): Mode {
  const x = rng();
  return x < ZH_SHARE ? 'zh' : x < ZH_SHARE + EN_SHARE ? 'en' : 'mixed';
}

function tagsOf(ctx: DocContext): string[] {
  const lang: Lang = ctx.mode === 'en' ? 'en' : 'zh';
  const tags = [...ctx.concepts.slice(0, 3).map((concept) => concept[lang]), ...ctx.products.slice(0, 2)];
  return [...new Set(tags)].filter((tag) => tag.length <= 40).slice(0, 6);
}

/** Where planted documents go: spread evenly over the corpus. */
function plantedPositions(n: number): Map<number, { spec: PlantedQuerySpec; doc: PlantedDocSpec; role: string }> {
  const queries = PLANTED_QUERIES.slice(0, Math.min(PLANTED_QUERIES.length, Math.floor(n / 3)));
  const docs = queries.flatMap((spec) => [
    { spec, doc: spec.target, role: 'target' },
    { spec, doc: spec.distractors[0], role: 'd1' },
    { spec, doc: spec.distractors[1], role: 'd2' },
  ]);
  const positions = new Map<number, (typeof docs)[number]>();
  for (const [j, entry] of docs.entries()) positions.set(Math.floor(((j + 0.5) * n) / docs.length), entry);
  return positions;
}

const plantedSlug = (id: string, role: string): string => `planted-${id}-${role}`;

/**
 * Yields `n` documents (articles, and every 50th a solution), deterministic for a given seed.
 * Includes the planted documents of up to 30 planted queries (`n / 3` when `n < 90`).
 */
export function* generateDocuments(options: CorpusOptions): Generator<Article | Solution> {
  const planted = plantedPositions(options.n);
  for (let i = 0; i < options.n; i++) {
    // One PRNG stream per document: document i is the same whatever n is.
    const rng = createRandom((options.seed * 1_000_003 + i * 7_919) >>> 0);
    const entry = planted.get(i);
    const mode: Mode = entry ? (entry.spec.lang === 'mixed' ? 'zh' : entry.spec.lang) : modeOf(rng);
    const topic = entry ? TOPICS.find((t) => t.key === entry.spec.topic)! : pick(rng, TOPICS);
    const ctx = contextFor(rng, mode, topic);
    const { markdown, lead } = body(ctx, int(rng, BODY_MIN_CHARS, BODY_MAX_CHARS - BODY_OVERSHOOT_CHARS), entry ? entry.doc.phrases : []);
    const lang: Lang = mode === 'en' ? 'en' : 'zh';
    const base = {
      title: entry ? entry.doc.title : title(ctx),
      category: topic.category,
      date: dateOf(rng),
      excerpt: excerptOf(lead),
      lang,
      tags: tagsOf(ctx),
      markdown,
      readingMinutes: Math.max(1, Math.round(markdown.length / (lang === 'zh' ? 500 : 1_200))),
    };
    if (!entry && i % SOLUTION_EVERY === SOLUTION_EVERY - 1) {
      const slug = `solution-${topic.key}-${String(i).padStart(6, '0')}`;
      yield {
        ...base,
        type: 'solution',
        slug,
        path: `/solutions/${slug}`,
        industry: pick(rng, INDUSTRIES),
        products: shuffle(rng, PRODUCT_SLUGS).slice(0, int(rng, 1, 3)),
      };
    } else {
      const slug = entry ? plantedSlug(entry.spec.id, entry.role) : `${topic.key}-${mode}-${String(i).padStart(6, '0')}`;
      yield { ...base, type: 'article', slug, path: `/blog/${slug}`, author: pick(rng, AUTHORS[lang]) };
    }
  }
}

/** All documents plus the planted queries resolved to slugs. */
export function generateCorpus(options: CorpusOptions): Corpus {
  const documents = [...generateDocuments(options)];
  const planted = PLANTED_QUERIES.slice(0, Math.min(PLANTED_QUERIES.length, Math.floor(options.n / 3))).map((spec) => ({
    id: spec.id,
    lang: spec.lang,
    query: spec.query,
    note: spec.note,
    target: plantedSlug(spec.id, 'target'),
    distractors: [plantedSlug(spec.id, 'd1'), plantedSlug(spec.id, 'd2')],
  }));
  return { documents, planted };
}

/**
 * A deterministic mix of realistic queries for latency measurement: English and Chinese concepts,
 * mixed product + Chinese, prefixes, typos, single Han characters, product names and a few long
 * queries.
 */
export function generateBenchQueries(options: { count: number; seed: number }): string[] {
  const rng = createRandom(options.seed ^ 0x5eed);
  const queries: string[] = [];
  const concept = (): Concept => pick(rng, pick(rng, TOPICS).concepts);
  const product = (): string => pick(rng, pick(rng, TOPICS).products);
  while (queries.length < options.count) {
    const kind = rng();
    if (kind < 0.25) {
      queries.push(rng() < 0.5 ? concept().en.toLowerCase() : `${concept().en} ${concept().en}`.toLowerCase());
    } else if (kind < 0.5) {
      queries.push(rng() < 0.5 ? concept().zh : `${concept().zh}${rng() < 0.5 ? ' ' : ''}${concept().zh}`);
    } else if (kind < 0.65) {
      queries.push(`${product()} ${concept().zh}`);
    } else if (kind < 0.75) {
      const words = concept().en.toLowerCase().split(' ');
      const last = words.pop()!;
      queries.push([...words, last.slice(0, Math.max(3, Math.min(last.length - 1, int(rng, 3, 6))))].join(' '));
    } else if (kind < 0.85) {
      const words = concept().en.toLowerCase().split(' ');
      const i = words.findIndex((w) => w.length >= 5);
      if (i < 0) continue;
      const w = words[i]!;
      const at = int(rng, 1, w.length - 2);
      words[i] = rng() < 0.5 ? w.slice(0, at) + w.slice(at + 1) : w.slice(0, at) + w[at + 1] + w[at] + w.slice(at + 2);
      queries.push(words.join(' '));
    } else if (kind < 0.9) {
      const zh = concept().zh.replace(/[^\p{Script=Han}]/gu, '');
      if (zh.length > 0) queries.push(zh[int(rng, 0, zh.length - 1)]!);
    } else if (kind < 0.95) {
      queries.push(product());
    } else {
      queries.push(Array.from({ length: int(rng, 4, 8) }, () => (rng() < 0.5 ? concept().en : concept().zh)).join(' '));
    }
  }
  return queries;
}

/** A YAML double-quoted scalar (JSON string syntax is valid YAML). */
const yamlString = (value: string): string => JSON.stringify(value);

function frontMatter(doc: Article | Solution): string {
  const lines = [`title: ${yamlString(doc.title)}`, `slug: ${doc.slug}`, `category: ${doc.category}`];
  if (doc.type === 'solution') lines.push(`industry: ${yamlString(doc.industry)}`);
  lines.push(
    `date: "${doc.date}"`,
    `excerpt: ${yamlString(doc.excerpt)}`,
    `lang: ${doc.lang}`,
    'tags:',
    ...doc.tags.map((t) => `  - ${yamlString(t)}`),
  );
  if (doc.type === 'solution') lines.push('products:', ...doc.products.map((p) => `  - ${p}`));
  if (doc.type === 'article' && doc.author) lines.push(`author: ${yamlString(doc.author)}`);
  return `---\n${lines.join('\n')}\n---\n\n`;
}

/**
 * Writes `corpus` as a content folder: articles/ and solutions/ as markdown with front matter valid
 * for src/content.config.ts, copies of the top-level data files (categories.yaml, company.yaml, …)
 * and products/ from `sourceDir`, and planted-queries.json.
 */
export async function writeCorpus(corpus: Corpus, outDir: string, sourceDir: string): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  for (const folder of ['articles', 'solutions', 'products']) await mkdir(path.join(outDir, folder), { recursive: true });
  // Every top-level data file (categories.yaml, company.yaml, tweets.json, ...) is site-wide, not per article.
  for (const entry of await readdir(sourceDir, { withFileTypes: true })) {
    if (entry.isFile()) await copyFile(path.join(sourceDir, entry.name), path.join(outDir, entry.name));
  }
  for (const file of await readdir(path.join(sourceDir, 'products'))) {
    await copyFile(path.join(sourceDir, 'products', file), path.join(outDir, 'products', file));
  }
  for (const doc of corpus.documents) {
    const folder = doc.type === 'solution' ? 'solutions' : 'articles';
    await writeFile(path.join(outDir, folder, `${doc.slug}.md`), frontMatter(doc) + doc.markdown);
  }
  await writeFile(path.join(outDir, 'planted-queries.json'), `${JSON.stringify(corpus.planted, null, 2)}\n`);
}

/** Reads `--name value` from argv. */
export function argValue(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}

async function main(argv: readonly string[]): Promise<void> {
  const n = Number(argValue(argv, 'n') ?? 1_000);
  const seed = Number(argValue(argv, 'seed') ?? 42);
  if (!Number.isInteger(n) || n < 1 || !Number.isInteger(seed))
    throw new Error('usage: node bench/generate-corpus.ts --n N --seed 42 --out DIR');
  const benchDir = path.dirname(fileURLToPath(import.meta.url));
  const outDir = path.resolve(argValue(argv, 'out') ?? path.join(benchDir, '.corpus', String(n)));
  const started = performance.now();
  const corpus = generateCorpus({ n, seed });
  await writeCorpus(corpus, outDir, path.resolve(benchDir, '..', 'content'));
  const chars = corpus.documents.reduce((sum, d) => sum + d.markdown.length, 0);
  console.log(
    `wrote ${corpus.documents.length} documents (${(chars / 1e6).toFixed(1)} M body chars, ${corpus.planted.length} planted queries) to ${outDir} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  answerHelpFromDoc(import.meta.url);
  await main(process.argv.slice(2));
}
