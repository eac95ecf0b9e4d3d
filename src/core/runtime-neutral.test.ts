/** The domain core runs unchanged in Node functions, Deno edge functions and the Astro build. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const CORE = import.meta.dirname;
const FORBIDDEN = /(?:from\s+|import\s*\(\s*|import\s+)['"](node:|astro:|@netlify\/)[^'"]*['"]/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('src/core is runtime-neutral', () => {
  const files = sourceFiles(CORE);

  it('has source files to check', () => {
    expect(files.length).toBeGreaterThan(5);
  });

  it('imports nothing from node:, astro: or @netlify/', () => {
    const offenders = files.filter((file) => FORBIDDEN.test(readFileSync(file, 'utf8'))).map((f) => path.relative(CORE, f));
    expect(offenders).toEqual([]);
  });

  it('uses explicit .ts extensions on relative imports (Deno and Node type stripping need them)', () => {
    const offenders = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/from\s+['"](\.{1,2}\/[^'"]+)['"]/g)]
        .map((m) => m[1]!)
        .filter((spec) => !spec.endsWith('.ts') && !spec.endsWith('.json'))
        .map((spec) => `${path.relative(CORE, file)}: ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  it('the guard pattern itself catches each forbidden form', () => {
    for (const line of ["import fs from 'node:fs';", 'import { x } from "astro:content";', "const b = await import('@netlify/blobs');"]) {
      expect(FORBIDDEN.test(line), line).toBe(true);
    }
    expect(FORBIDDEN.test("import { x } from './node-helpers.ts';")).toBe(false);
  });
});
