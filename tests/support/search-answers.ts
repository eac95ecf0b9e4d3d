/**
 * Recorded search answers: what the engine answered for generated corpora (bench/generate-corpus.ts)
 * when the fixture was written, one digest per query over every option variant, so that a change of
 * the index format or the reader is checked against the answers of the code before it, byte for byte
 * (tests/integration/search-answers.test.ts). Regenerate only when answers are meant to change (a
 * ranking or tokenizer change; say so in the commit):
 *
 *     node tests/support/search-answers.ts --write
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateBenchQueries, generateCorpus } from '../../bench/generate-corpus.ts';
import type { Document } from '../../src/core/content/catalog.ts';
import { MAX_RESULT_LIMIT, type SearchEngine, type SearchOptions } from '../../src/core/search/search-index.ts';

/** The fixture file. */
export const SEARCH_ANSWERS_FILE = path.resolve(import.meta.dirname, '..', 'fixtures', 'search-answers.json');

/** A generated corpus and the queries asked of it. */
export interface AnswerSet {
  name: string;
  n: number;
  seed: number;
  /** Digest of the corpus's documents: tells "the generator changed" from "the answers changed". */
  corpus: string;
  /** Category filters tried with every query. */
  categories: string[];
  /** Query → digest of the answers to every variant ({@link variantsOf}). */
  answers: Record<string, string>;
}

/** The corpora of the fixture: the search benchmark's (10,000, its 200 queries) and a smaller one with search-as-you-type prefixes. */
export const ANSWER_CORPORA = [
  { name: 'bench', n: 10_000, seed: 42, queries: (docs: Document[], planted: string[]) => [...planted, ...benchQueries(docs, 170)] },
  {
    name: 'prefixes',
    n: 2_000,
    seed: 7,
    queries: (docs: Document[], planted: string[]) => withPrefixes([...planted, ...benchQueries(docs, 120), ...titles(docs, 60)]),
  },
] as const;

const benchQueries = (_docs: Document[], count: number): string[] => generateBenchQueries({ count, seed: 42 });
const titles = (docs: Document[], count: number): string[] =>
  docs.filter((_, i) => i % Math.ceil(docs.length / count) === 0).map((d) => d.title);

/** Each query as typed, the first half, all but the last character and the first three (search-as-you-type). */
export function withPrefixes(queries: readonly string[]): string[] {
  return [...new Set(queries.flatMap((q) => [q, q.slice(0, Math.ceil(q.length / 2)), q.slice(0, -1), q.slice(0, 3)]))];
}

/** The option variants every query is asked with. */
export function variantsOf(categories: readonly string[]): (SearchOptions | undefined)[] {
  return [undefined, { limit: MAX_RESULT_LIMIT }, { limit: 1 }, ...categories.map((category) => ({ category }))];
}

const digest = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** The generated corpus of one fixture entry, its queries and the categories it filters by. */
export function answerCorpus(entry: (typeof ANSWER_CORPORA)[number]): {
  documents: Document[];
  queries: string[];
  categories: string[];
  corpus: string;
} {
  const { documents, planted } = generateCorpus({ n: entry.n, seed: entry.seed });
  const categories = [...new Set(documents.map((d) => d.category))].sort().slice(0, 3);
  return {
    documents,
    queries: entry.queries(
      documents,
      planted.map((p) => p.query),
    ),
    categories,
    corpus: digest(JSON.stringify(documents)),
  };
}

/** Query → digest of the engine's answers (JSON text) to every variant. */
export function answerDigests(engine: SearchEngine, queries: readonly string[], categories: readonly string[]): Record<string, string> {
  const variants = variantsOf(categories);
  return Object.fromEntries(
    queries.map((q) => [q, digest(variants.map((options) => JSON.stringify(engine.search(q, options))).join('\n'))]),
  );
}

/** The recorded answer sets. */
export function readAnswerSets(): AnswerSet[] {
  return JSON.parse(readFileSync(SEARCH_ANSWERS_FILE, 'utf8')) as AnswerSet[];
}

if (process.argv[1] === import.meta.filename && process.argv.includes('--write')) {
  const { buildSearchIndex } = await import('../../src/core/search/build-index.ts');
  const { loadSearchIndex } = await import('../../src/core/search/search-index.ts');
  const sets: AnswerSet[] = ANSWER_CORPORA.map((entry) => {
    const { documents, queries, categories, corpus } = answerCorpus(entry);
    const engine = loadSearchIndex(buildSearchIndex(documents));
    return { name: entry.name, n: entry.n, seed: entry.seed, corpus, categories, answers: answerDigests(engine, queries, categories) };
  });
  writeFileSync(SEARCH_ANSWERS_FILE, `${JSON.stringify(sets, null, 1)}\n`);
  console.log(`wrote ${SEARCH_ANSWERS_FILE}: ${sets.map((s) => `${s.name} ${Object.keys(s.answers).length} queries`).join(', ')}`);
}
