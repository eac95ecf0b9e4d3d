/** How content errors read: Astro's markdown schema message made plain, each error at its field's line. */
import { describe, expect, it } from 'vitest';
import { contentErrorReport, contentErrorsFailure, keyLine, schemaIssues, sortedErrors } from './content-errors.ts';

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
