/**
 * Comments cite documents by their path in the repository (`docs/reference/mcp-oauth.md §4.1`), so a
 * fresh clone can follow every citation: each `docs/….md` named in a comment under src/, scripts/,
 * netlify/, tools/ and tests/ must exist, and a bare file name of a note under docs/
 * (the note name alone, with no folder) is refused. Comments are found with the TypeScript parser,
 * so strings and URLs are not comments.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commentsOf, sourceFiles } from '../support/source-comments.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const FOLDERS = ['src', 'scripts', 'netlify', 'tools', 'tests'];
/** A docs path, or a bare `<name>.md` not preceded by a path or URL segment. */
const DOCS_PATH = /(?<![\w/.-])docs\/[\w./-]+\.md\b/g;
const BARE_NAME = /(?<![\w/.-])([\w-]+\.md)\b/g;

function* mdFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* mdFiles(full);
    else if (entry.name.endsWith('.md')) yield entry.name;
  }
}

/** Citations of missing docs and bare note names, as `file: citation` lines. */
function citationProblems(file: string, text: string, docNames: ReadonlySet<string>, exists: (p: string) => boolean): string[] {
  const problems: string[] = [];
  for (const { text: comment } of commentsOf(text, file)) {
    for (const [cited] of comment.matchAll(DOCS_PATH)) {
      if (!exists(cited)) problems.push(`${file}: ${cited} does not exist`);
    }
    for (const [, name] of comment.matchAll(BARE_NAME)) {
      if (name && docNames.has(name)) problems.push(`${file}: ${name} is cited without its path (docs/…/${name})`);
    }
  }
  return problems;
}

describe('document citations in comments', () => {
  const docNames = new Set([...mdFiles(path.join(ROOT, 'docs'))].filter((name) => name !== 'README.md'));
  const exists = (cited: string): boolean => existsSync(path.join(ROOT, cited));

  it('finds comments, not strings, and flags missing paths and bare names (so the check can fail)', () => {
    const text = "// see docs/reference/nope.md §1 and search.md\nconst url = '/docs/api.md'; /* docs/storage.md */\n";
    expect(citationProblems('x.ts', text, new Set(['search.md']), (p) => p === 'docs/storage.md')).toEqual([
      'x.ts: docs/reference/nope.md does not exist',
      'x.ts: search.md is cited without its path (docs/…/search.md)',
    ]);
  });

  it('every docs/….md cited in a comment exists, and notes are cited by path', () => {
    const problems: string[] = [];
    let cited = 0;
    for (const folder of FOLDERS) {
      for (const file of sourceFiles(path.join(ROOT, folder))) {
        const text = readFileSync(file, 'utf8');
        if (!text.includes('.md')) continue;
        cited +=
          commentsOf(text, file)
            .map((c) => c.text)
            .join('\n')
            .match(DOCS_PATH)?.length ?? 0;
        problems.push(...citationProblems(path.relative(ROOT, file), text, docNames, exists));
      }
    }
    expect(problems).toEqual([]);
    expect(cited).toBeGreaterThan(20); // the code does cite the notes: the scan found them
  });
});
