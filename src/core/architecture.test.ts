/**
 * The house rules of src/core, checked on every import:
 * - runtime-neutral: nothing from node:, astro: or @netlify/, no process/Buffer/require, relative
 *   imports name their .ts file (Deno and Node type stripping need it);
 * - layered: a folder imports only folders of a lower layer, so there are no folder cycles, and no
 *   feature imports another feature: only publish/ (and the adapters outside src/core) combine them.
 * And of the rooms around it: src/astro/ is the code that runs in the Astro process (collections, build
 * hooks, the twin route, OG images), src/browser/ the scripts pages ship to browsers; neither leans on the
 * other, the browser's code imports nothing of Node or Astro, and the old folders do not come back.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const CORE = import.meta.dirname;
const SRC = path.dirname(CORE);

/** Lower layers first. Folders of one layer may not import each other. */
const LAYERS: readonly (readonly string[])[] = [
  ['kernel'],
  ['content'],
  ['search'],
  ['agent-tools'],
  ['contact', 'tweets', 'health', 'oauth', 'mcp', 'a2a', 'web-bot-auth', 'analytics', 'feedback'],
  ['config.ts'],
  ['publish'],
];
const layerOf = (unit: string): number => LAYERS.findIndex((layer) => layer.includes(unit));

const FORBIDDEN_IMPORT = /(?:from\s+|import\s*\(\s*|import\s+)['"](node:|astro:|@netlify\/)[^'"]*['"]/;
const FORBIDDEN_GLOBAL = /\bprocess\.|\bBuffer\b|\brequire\(/;
const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** Source without comments (a comment may name `process.env` to say it is not read). */
const withoutComments = (source: string): string => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** The top-level folder (or root file) of src/core a path belongs to. */
const unitOf = (file: string): string => path.relative(CORE, file).split(path.sep)[0]!;

const files = sourceFiles(CORE);
const imports = files.flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)].map((m) => ({
    file,
    spec: m[1]!,
    target: path.resolve(path.dirname(file), m[1]!),
  })),
);

describe('src/core is runtime-neutral', () => {
  it('has source files in every layer', () => {
    for (const layer of LAYERS)
      expect(
        files.some((f) => layer.includes(unitOf(f))),
        layer.join(),
      ).toBe(true);
  });

  it('imports nothing from node:, astro: or @netlify/ and uses no Node globals', () => {
    const offenders = files.filter((f) => {
      const code = withoutComments(readFileSync(f, 'utf8'));
      return FORBIDDEN_IMPORT.test(code) || FORBIDDEN_GLOBAL.test(code);
    });
    expect(offenders.map((f) => path.relative(CORE, f))).toEqual([]);
  });

  it('names the .ts file in every relative import', () => {
    const offenders = imports.filter((i) => !/\.(ts|json)$/.test(i.spec)).map((i) => `${path.relative(CORE, i.file)}: ${i.spec}`);
    expect(offenders).toEqual([]);
  });

  it('the guard patterns catch each forbidden form', () => {
    for (const line of ["import fs from 'node:fs';", 'import { x } from "astro:content";', "const b = await import('@netlify/blobs');"]) {
      expect(FORBIDDEN_IMPORT.test(line), line).toBe(true);
    }
    expect(FORBIDDEN_IMPORT.test("import { x } from './node-helpers.ts';")).toBe(false);
    expect(FORBIDDEN_GLOBAL.test('const port = process.env.PORT;')).toBe(true);
    expect(FORBIDDEN_GLOBAL.test(withoutComments('/** never reads `process.env` */\nconst a = 1;'))).toBe(false);
  });
});

describe('src/core is layered', () => {
  it('puts every file in a known layer', () => {
    expect(files.map(unitOf).filter((u) => layerOf(u) < 0)).toEqual([]);
  });

  it('imports only from its own folder or a lower layer (no cycles, no feature importing a feature)', () => {
    const offenders = imports
      .filter((i) => !path.relative(CORE, i.target).startsWith('..'))
      .filter((i) => {
        const from = unitOf(i.file);
        const to = unitOf(i.target);
        return from !== to && layerOf(to) >= layerOf(from);
      })
      .map((i) => `${path.relative(CORE, i.file)} -> ${path.relative(CORE, i.target)}`);
    expect(offenders).toEqual([]);
  });

  it('reaches outside src/core only for JSON data, never for tests or scripts', () => {
    const outside = imports.filter((i) => path.relative(CORE, i.target).startsWith('..') && !i.spec.endsWith('.json'));
    expect(outside.map((i) => `${path.relative(CORE, i.file)} -> ${i.spec}`)).toEqual([]);
  });

  it('the rule would catch a feature importing a feature and an upward import', () => {
    expect(layerOf('oauth')).toBe(layerOf('mcp'));
    expect(layerOf('publish')).toBeGreaterThan(layerOf('mcp'));
    expect(layerOf('kernel')).toBeLessThan(layerOf('content'));
  });
});

/** What src/ holds: Astro's own folders, the core, and one room for each other side. */
const SRC_ENTRIES = ['astro', 'browser', 'components', 'content.config.ts', 'core', 'layouts', 'pages', 'styles'];

/** Relative imports of the non-test source files under `folder`, resolved. */
const importsUnder = (folder: string) =>
  sourceFiles(folder).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)].map((m) => ({
      file: path.relative(SRC, file),
      target: path.relative(SRC, path.resolve(path.dirname(file), m[1]!)),
    })),
  );
const roomOf = (srcRelative: string): string => srcRelative.split(path.sep)[0]!;

describe('src/ has one room per side', () => {
  it('holds only the known folders (src/lib, src/integrations, src/routes and src/scripts are gone)', () => {
    // A folder left empty by a checkout of the move holds no code: only entries with files count.
    const entries = readdirSync(SRC, { withFileTypes: true }).filter(
      (e) => !e.isDirectory() || readdirSync(path.join(SRC, e.name), { recursive: true }).length > 0,
    );
    expect(entries.map((e) => e.name).sort()).toEqual(SRC_ENTRIES);
  });

  it('src/core imports neither src/astro nor src/browser', () => {
    const offenders = imports.map((i) => path.relative(SRC, i.target)).filter((t) => ['astro', 'browser'].includes(roomOf(t)));
    expect(offenders).toEqual([]);
  });

  it('src/browser imports nothing from node:, astro: or @netlify/, and only itself and src/core', () => {
    const dir = path.join(SRC, 'browser');
    const forbidden = sourceFiles(dir).filter((f) => FORBIDDEN_IMPORT.test(withoutComments(readFileSync(f, 'utf8'))));
    expect(forbidden.map((f) => path.relative(SRC, f))).toEqual([]);
    const outside = importsUnder(dir).filter((i) => !['browser', 'core'].includes(roomOf(i.target)));
    expect(outside.map((i) => `${i.file} -> ${i.target}`)).toEqual([]);
  });

  it('src/astro imports only itself and src/core (pages and components use it, not the other way)', () => {
    const outside = importsUnder(path.join(SRC, 'astro')).filter((i) => !['astro', 'core'].includes(roomOf(i.target)));
    expect(outside.map((i) => `${i.file} -> ${i.target}`)).toEqual([]);
  });
});
