/**
 * The project's TypeScript sources and the comments in them, found with the TypeScript parser (so
 * strings and URLs inside code are not mistaken for comments). Used by the quality tests on comments.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const SOURCE_FOLDERS = ['src', 'scripts', 'netlify', 'tools', 'tests', 'bench'] as const;
const SOURCE = /\.(?:ts|mts|mjs|js)$/;

/** Source files under `dir`, skipping node_modules, dot folders and declaration files. */
export function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) yield full;
  }
}

export interface SourceComment {
  /** Offset of the comment's first character. */
  pos: number;
  end: number;
  text: string;
}

/** Every comment in a file, as the TypeScript scanner sees them around the parsed tokens. */
export function commentsOf(text: string, fileName = 'file.ts'): SourceComment[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const seen = new Map<number, SourceComment>();
  const collect = (ranges: ts.CommentRange[] | undefined): void => {
    for (const r of ranges ?? []) seen.set(r.pos, { pos: r.pos, end: r.end, text: text.slice(r.pos, r.end) });
  };
  const visit = (node: ts.Node): void => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    if (node.kind === ts.SyntaxKind.EndOfFileToken) return;
    node.getChildren(source).forEach(visit);
  };
  visit(source);
  return [...seen.values()];
}
