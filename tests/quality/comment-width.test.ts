/**
 * Comments fit in 140 columns. The formatter (Biome, `lineWidth` 140, run by `biome ci` in
 * `npm test`) lays out code but never rewraps comments, so this test holds them to the same width.
 * A line may run over only by one unbreakable token (a URL, a path). String literals are left to
 * the author: long prose in OpenAPI descriptions or bench reports is kept greppable (docs/development.md, "Code style").
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commentsOf, SOURCE_FOLDERS, sourceFiles } from '../support/source-comments.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const COMMENT_WIDTH_COLUMNS = 140;
/** A token this long (a URL, a path) cannot be wrapped; a line over the width because of it passes. */
const UNBREAKABLE_TOKEN_CHARS = 60;

/** Lines holding a comment that run past the width, as `file:line (length)`. */
function wideCommentLines(file: string, text: string): string[] {
  const lines = text.split('\n');
  const lineStarts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    lineStarts.push(offset);
    offset += line.length + 1;
  }
  const lineOf = (pos: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const wide = new Set<number>();
  for (const comment of commentsOf(text, file)) {
    for (let n = lineOf(comment.pos); n <= lineOf(comment.end - 1); n++) {
      const line = lines[n]!;
      if ([...line].length <= COMMENT_WIDTH_COLUMNS) continue;
      // Over only because of one unbreakable token (a long URL or path): wrapping cannot help.
      if (line.split(/\s+/).some((token) => token.length > UNBREAKABLE_TOKEN_CHARS)) continue;
      wide.add(n);
    }
  }
  return [...wide].map((n) => `${file}:${n + 1} (${[...lines[n]!].length})`);
}

describe('comment width', () => {
  it('flags a wide comment line but not a wide string or a lone long URL (so the check can fail)', () => {
    const long = 'word '.repeat(40);
    const url = `https://example.com/${'a'.repeat(150)}`;
    const text = `// ${long}\nconst s = '${long}';\n/**\n * see\n * ${url}\n */\nconst t = 1; // ${long}\n`;
    expect(wideCommentLines('x.ts', text)).toEqual(['x.ts:1 (203)', 'x.ts:7 (216)']);
  });

  it(`every comment line in the sources fits in ${COMMENT_WIDTH_COLUMNS} columns`, () => {
    const wide: string[] = [];
    let files = 0;
    for (const folder of SOURCE_FOLDERS) {
      for (const file of sourceFiles(path.join(ROOT, folder))) {
        files++;
        wide.push(...wideCommentLines(path.relative(ROOT, file), readFileSync(file, 'utf8')));
      }
    }
    expect(files).toBeGreaterThan(300);
    expect(wide).toEqual([]);
  });
});
