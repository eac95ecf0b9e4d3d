/**
 * The domain core runs unchanged in Node functions, Deno edge functions and the Astro build; the
 * agent-readiness checker's library (tools/agent-ready, all but its Node CLI in node/) runs in any
 * runtime with fetch and Web Crypto, so the same rules hold there.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const CORE = import.meta.dirname;
const CHECKER = path.resolve(CORE, '../../tools/agent-ready');
const FORBIDDEN = /(?:from\s+|import\s*\(\s*|import\s+)['"](node:|astro:|@netlify\/)[^'"]*['"]/;

function sourceFiles(dir: string, skipDirs: readonly string[] = []): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return skipDirs.includes(full) ? [] : sourceFiles(full, skipDirs);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('src/core and the checker library are runtime-neutral', () => {
  const checkerFiles = sourceFiles(CHECKER, [path.join(CHECKER, 'node')]);
  const files = [...sourceFiles(CORE), ...checkerFiles];

  it('has source files to check', () => {
    expect(files.length).toBeGreaterThan(5);
    expect(checkerFiles.map((f) => path.relative(CHECKER, f))).toEqual(expect.arrayContaining(['registry.ts', 'http.ts', 'checks/web-bot-auth.ts']));
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
