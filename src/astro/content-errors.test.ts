/** How content errors read: Astro's markdown schema message made plain, each error at its field's line. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Loader, LoaderContext } from 'astro/loaders';
import { describe, expect, it } from 'vitest';
import {
  contentErrorReport,
  contentErrorsFailure,
  entryErrors,
  keyLine,
  noFrontMatterError,
  parseDataFile,
  readTweetSnapshotFile,
  reporting,
  schemaErrors,
  schemaIssues,
  sortedErrors,
  withInvalidIds,
} from './content-errors.ts';

/** The message Astro 7 gives a schema failure (InvalidContentEntryDataError), as it printed it here. */
const ASTRO_MESSAGE = [
  '**articles → building-reliable-ai-agents** data does not match collection schema.',
  '',
  '  **lang**: Invalid option: expected one of "zh"|"en"',
  '  **excerpt**: excerpt: Required',
  '  **category**: Did not match union.',
  '> Expected type `string`',
  '',
].join('\n');

describe('schemaIssues', () => {
  it('reads each issue of Astro’s message as plain text: no ** markup, backticks as quotes, continuation lines joined', () => {
    expect(schemaIssues(ASTRO_MESSAGE)).toEqual([
      { field: 'lang', message: 'Invalid option: expected one of "zh"|"en"' },
      { field: 'excerpt', message: 'excerpt: Required' },
      { field: 'category', message: 'Did not match union.; Expected type "string"' },
    ]);
  });
});

describe('keyLine', () => {
  const article = '---\ntitle: A\nslug: a\nlang: fr\ntags:\n  - lang: not this one\n---\nlang: in the body\ndate: in the body\n';

  it('finds a top-level front-matter key, not a nested one, and line 1 for a missing one', () => {
    expect(keyLine(article, 'lang')).toBe(4);
    expect(keyLine(article, 'slug')).toBe(3);
    expect(keyLine(article, 'excerpt')).toBe(1);
    expect(keyLine(article, 'date')).toBe(1);
  });

  it('finds a field inside its entry of a data file, else the entry’s own line', () => {
    const categories = 'rag:\n  name: RAG\n  name_zh: 检索\nagents:\n  name: Agents\n  name_zh: ""\n';
    expect(keyLine(categories, 'name_zh', 'agents')).toBe(6);
    expect(keyLine(categories, 'description', 'agents')).toBe(4);
    expect(keyLine(categories, 'name', 'missing')).toBe(1);
  });
});

describe('the report', () => {
  const errors = [
    { file: 'content/b.md', line: 3, message: 'slug: taken' },
    { file: 'content/a.md', line: 9, message: 'lang: no' },
    { file: 'content/a.md', line: 2, message: 'title: no' },
    { file: 'content/a.md', line: 2, message: 'title: no' },
  ];

  it('lists each error once as file:line: message, by file and line, under a count', () => {
    expect(contentErrorReport(errors)).toBe(
      '3 content errors; fix them and build again:\ncontent/a.md:2: title: no\ncontent/a.md:9: lang: no\ncontent/b.md:3: slug: taken',
    );
    expect(contentErrorReport(errors.slice(0, 1))).toBe('1 content error; fix it and build again:\ncontent/b.md:3: slug: taken');
    expect(sortedErrors(errors)).toHaveLength(3);
  });

  it('fails a build with the report alone: no stack for Astro to print', () => {
    const failure = contentErrorsFailure(errors);
    expect(failure.message).toBe(contentErrorReport(errors));
    expect(failure.stack).toBe('');
  });
});

describe('data files that do not parse', () => {
  const company = 'profile:\n  name: Acme\n  tagline: Private LLM platforms\n  legal_name: Acme Ltd\n  founded: 2020\n';
  const errorOf = (text: string, file = 'content/company.yaml') => {
    const parsed = parseDataFile(text, file);
    if (parsed.ok) throw new Error('parsed');
    return parsed.error;
  };

  it('reads a YAML or JSON file that parses as its data', () => {
    expect(parseDataFile(company, 'content/company.yaml')).toEqual({
      ok: true,
      data: { profile: { name: 'Acme', tagline: 'Private LLM platforms', legal_name: 'Acme Ltd', founded: 2020 } },
    });
    expect(parseDataFile('{"a": [1]}', 'content/tweets.json')).toEqual({ ok: true, data: { a: [1] } });
  });

  it('reports a YAML syntax error at its line in plain words, with the usual cause of a vague one', () => {
    expect(errorOf(company.replace('  name: Acme', '   name: Acme'))).toEqual({
      file: 'content/company.yaml',
      line: 3,
      message: 'not valid YAML: bad indentation of a mapping entry (column 3)',
    });
    // A value holding ": " without quotes: js-yaml calls it bad indentation.
    expect(errorOf(company.replace('Private LLM platforms', 'Private: LLM platforms'))).toEqual({
      file: 'content/company.yaml',
      line: 3,
      message: 'not valid YAML: bad indentation of a mapping entry (column 19); a value that holds ": " must be in quotes',
    });
    expect(errorOf(`${company}  founded: 2021\n`).message).toBe('not valid YAML: duplicated mapping key (column 3)');
    expect(errorOf(`${company}  founded: 2021\n`).line).toBe(6);
  });

  it('reports an unclosed double quote at the line that opens it, not at the end of the file', () => {
    expect(errorOf(company.replace('legal_name: Acme Ltd', 'legal_name: "Acme Ltd'))).toEqual({
      file: 'content/company.yaml',
      line: 4,
      message: 'not valid YAML: a double-quoted value starts here and is never closed',
    });
  });

  it('reports a JSON syntax error at its line', () => {
    expect(errorOf('{\n  "tweets": [\n    1,\n  ]\n}\n', 'content/tweets.json')).toEqual({
      file: 'content/tweets.json',
      line: 4,
      message: expect.stringMatching(/^not valid JSON: .+ \(column 3\)$/),
    });
    expect(errorOf('{\n  "tweets": [\n', 'content/tweets.json')).toMatchObject({ line: expect.any(Number), message: /^not valid JSON: / });
  });

  it('reads the tweet snapshot as a content error when it does not parse or fit the feed', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tweets-'));
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'tweets.json'), '{\n  "updated_at": "2026-11-15T08:00:00Z",\n  "tweets": [,]\n}\n');
      const broken = readTweetSnapshotFile(dir);
      expect(broken.feed).toBeUndefined();
      expect(broken.errors).toEqual([
        { file: path.relative(process.cwd(), path.join(dir, 'tweets.json')), line: 3, message: expect.stringMatching(/^not valid JSON: /) },
      ]);
      writeFileSync(path.join(dir, 'tweets.json'), '{"updated_at": "2026-11-15T08:00:00Z", "tweets": [{"id": 1}]}');
      expect(readTweetSnapshotFile(dir).errors[0]).toMatchObject({ line: 1, message: /tweets\.0\./ });
      writeFileSync(path.join(dir, 'tweets.json'), '{"updated_at": "2026-11-15T08:00:00Z", "tweets": []}');
      expect(readTweetSnapshotFile(dir)).toEqual({ feed: { updated_at: '2026-11-15T08:00:00Z', tweets: [] }, errors: [] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Astro's message for an article whose front matter lacks its fields (as stranger s10b saw it: three wordings, one cause). */
const MISSING_FIELDS = [
  '**articles → zz-e16-nofm** data does not match collection schema.',
  '',
  '  **title**: Required',
  '  **category**: Did not match union.',
  '> Required',
  '  **lang**: Invalid option: expected one of "zh"|"en"',
  '',
].join('\n');

describe('a field that is missing, a file without front matter', () => {
  it('says "the field is required" for every field the entry lacks, whatever the schema said, and keeps a bad value’s message', () => {
    const messages = (data: object): string[] =>
      schemaErrors(new Error(MISSING_FIELDS), '/nowhere.md', 'content/articles/a.md', undefined, data).map((e) => e.message);
    expect(messages({})).toEqual(['title: the field is required', 'category: the field is required', 'lang: the field is required']);
    expect(messages({ category: 'quantum', lang: 'fr' })).toEqual([
      'title: the field is required',
      'category: Did not match union.; Required',
      'lang: Invalid option: expected one of "zh"|"en"',
    ]);
  });

  it('gives a file without front matter, or an empty one, one error naming the fields it lacks', () => {
    const fields = ['title', 'slug'];
    expect(noFrontMatterError('', 'a.md', fields)).toEqual({
      file: 'a.md',
      line: 1,
      message: 'the file is empty: a content file starts with a "---" line, its fields (title, slug), then a "---" line',
    });
    expect(noFrontMatterError('# A title\n\nText.\n', 'a.md', fields)?.message).toMatch(/^no front matter: a content file starts with/);
    for (const source of ['---\ntitle: A\n---\n', '\uFEFF---\n---\n', '\n---\ntitle: A\n---\nText'])
      expect(noFrontMatterError(source, 'a.md', fields)).toBeUndefined();
  });

  it('stores a markdown file without front matter with that one error (reporting: the schema’s six lines before)', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'no-front-matter-'));
    try {
      mkdirSync(path.join(root, 'content'));
      writeFileSync(path.join(root, 'content', 'nofm.md'), 'Just a body.\n');
      let stored: Record<string, unknown> | undefined;
      const loader: Loader = {
        name: 'fake',
        load: async ({ parseData }) => {
          stored = await parseData({ id: 'nofm', data: {}, filePath: path.join(root, 'content', 'nofm.md') });
        },
      };
      const context = {
        collection: 'articles',
        config: { root: pathToFileURL(`${root}/`) },
        store: { get: () => undefined, set: () => true, delete: () => {}, clear: () => {} },
        parseData: async () => {
          throw new Error(MISSING_FIELDS);
        },
      } as unknown as LoaderContext;
      await reporting(loader).load(context);
      expect(entryErrors(stored!)).toEqual([
        {
          file: path.join('content', 'nofm.md'),
          line: 1,
          message: 'no front matter: a content file starts with a "---" line, its fields (title, category, lang), then a "---" line',
        },
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('ids of a data file that are addresses (categories.yaml, glossary.yaml; recheck N4)', () => {
  const ids = { pattern: /^[a-z0-9]+(?:-[a-z0-9]+)*$/, says: 'lowercase a-z, 0-9 and single hyphens' };
  it("make an entry with an id that is not one invalid, its error at the id's line; valid entries stay as they are", () => {
    const text = 'rag:\n  term: RAG\nBad Id:\n  term: Bad\n"Quoted_Id":\n  term: Q\n';
    const entries = { rag: { term: 'RAG' }, 'Bad Id': { term: 'Bad' }, Quoted_Id: { term: 'Q' } };
    const checked = withInvalidIds(entries, text, 'content/glossary.yaml', ids);
    expect(checked.rag).toEqual({ term: 'RAG' });
    expect(entryErrors(checked['Bad Id']!)).toEqual([
      { file: 'content/glossary.yaml', line: 3, message: '"Bad Id" is not a valid id: lowercase a-z, 0-9 and single hyphens' },
    ]);
    expect(entryErrors(checked.Quoted_Id!)).toEqual([
      { file: 'content/glossary.yaml', line: 5, message: '"Quoted_Id" is not a valid id: lowercase a-z, 0-9 and single hyphens' },
    ]);
  });
});
