import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const DIR = new URL('./', import.meta.url);
const SOURCES = readdirSync(DIR).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts'));
const IMPORT_SPECIFIER = /^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm;

describe('src/core/search is runtime-neutral', () => {
  it.each(SOURCES)('%s imports no node:, astro: or @netlify/ module, and relative imports name .ts files', (name) => {
    const source = readFileSync(new URL(name, DIR), 'utf8');
    const specifiers = [...source.matchAll(IMPORT_SPECIFIER)].map((m) => m[1]!);
    for (const specifier of specifiers) {
      expect(specifier).not.toMatch(/^(node:|astro:|@netlify\/)/);
      if (specifier.startsWith('.')) expect(specifier).toMatch(/\.ts$/);
    }
    expect(source).not.toMatch(/\bprocess\.|\bBuffer\b|\brequire\(|\bimport\(/);
  });
});
