/**
 * Build benchmark (issue 7): the full production build of this site against two peers on the same
 * generated articles: a bare Astro project (one layout, a glob-loader collection, one dynamic route,
 * HTML only) built by the same astro binary, and a plain Hugo site. Every build is cold (fresh
 * cache and output folders) and runs in its own process tree; per build it records wall time, HTML
 * pages per second, peak memory of the whole process tree and output size. Prints a markdown table
 * and writes bench/.out/build-results.json.
 *
 *     node bench/build.bench.ts [--sizes 100,1000,10000] [--seed 42] [--runs 3]
 *
 * Scratch: corpora and the two peer projects in bench/.corpus/build/ (outside the type-checked
 * tree), outputs, caches and build logs in bench/.out/build/.
 * @module
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { argValue, generateCorpus, writeCorpus } from './generate-corpus.ts';
import { median } from './stats.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS_ROOT = path.join(ROOT, 'bench', '.corpus', 'build');
const OUT_ROOT = path.join(ROOT, 'bench', '.out', 'build');
const RESULTS_FILE = path.join(ROOT, 'bench', '.out', 'build-results.json');

const argv = process.argv.slice(2);
const sizes = (argValue(argv, 'sizes') ?? '100,1000,10000').split(',').map(Number);
const seed = Number(argValue(argv, 'seed') ?? 42);
const runs = Number(argValue(argv, 'runs') ?? 3);
if (sizes.some((n) => !Number.isInteger(n) || n < 1) || !Number.isInteger(seed) || !Number.isInteger(runs) || runs < 1) {
  throw new Error('usage: node bench/build.bench.ts [--sizes 100,1000,10000] [--seed 42] [--runs 3]');
}

/** Goal at 10,000 articles (issue 7). */
const GOAL = { size: 10_000, maxRatioToBareAstro: 2.5, maxWallS: 90, maxPeakBytes: 4e9 };
/** Process-tree memory is sampled this often. */
const POLL_MS = 50;
const MB = 1_000_000;
const PAGE_BYTES = 4096;
const SITE_URL = 'http://localhost:8888';

const ASTRO_BIN = (() => {
  const require = createRequire(path.join(ROOT, 'package.json'));
  const pkgFile = require.resolve('astro/package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { version: string; bin: string | Record<string, string> };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.astro!;
  return { file: path.join(path.dirname(pkgFile), bin), version: pkg.version };
})();
const HUGO = '/usr/bin/hugo';
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

type Tool = 'ours' | 'bare' | 'hugo';
const TOOLS: Tool[] = ['ours', 'bare', 'hugo'];
const LABEL: Record<Tool, string> = { ours: 'this site (full build)', bare: 'bare Astro', hugo: 'Hugo' };

interface BuildRun {
  tool: Tool;
  run: number;
  wallS: number;
  htmlPages: number;
  files: number;
  pagesPerS: number;
  /** Highest sum of RSS over the process and all its descendants, sampled every POLL_MS. */
  peakTreeBytes: number;
  /** Largest RSS of any one process of the tree. */
  peakSingleBytes: number;
  /** CPU seconds (user + system) of every process of the tree, as last sampled. */
  cpuS: number;
  outBytes: number;
  /** Files the build writes outside its public output (ours: generated/). */
  sideBytes: number;
  /** Ours: seconds spent in Pagefind (from the site-data integration's log line). */
  pagefindS: number | null;
  load1: number;
  log: string;
}

// ---------------------------------------------------------------------------------------------
// Measuring one process tree

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

interface ProcessEntry {
  ppid: number;
  rss: number;
  /** utime + stime, in clock ticks. */
  cpuTicks: number;
  /** Start time in ticks since boot: with the pid it names one process even if pids are reused. */
  start: number;
}

/** Every process, from /proc/<pid>/stat. */
function processTable(): Map<number, ProcessEntry> {
  const table = new Map<number, ProcessEntry>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/stat`, 'latin1');
    } catch {
      continue; // exited between readdir and read
    }
    // Fields after "(comm) ": state ppid ...; utime, stime, starttime and rss are fields 14, 15, 22 and 24 (1-based).
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    table.set(pid, {
      ppid: Number(fields[1]),
      cpuTicks: Number(fields[11]) + Number(fields[12]),
      start: Number(fields[19]),
      rss: Number(fields[21]) * PAGE_BYTES,
    });
  }
  return table;
}

/** Samples a process tree: peak of the summed RSS, peak of any one process, CPU time per process as last seen. */
class TreeSampler {
  peakTree = 0;
  peakSingle = 0;
  private cpu = new Map<string, number>();
  private root: number;
  private includeRoot: boolean;

  constructor(root: number, includeRoot: boolean) {
    this.root = root;
    this.includeRoot = includeRoot;
  }

  sample(): void {
    const table = processTable();
    const children = new Map<number, number[]>();
    for (const [pid, { ppid }] of table) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    const members = this.includeRoot ? [this.root] : [];
    const stack = [...(children.get(this.root) ?? [])];
    while (stack.length) {
      const pid = stack.pop()!;
      members.push(pid);
      stack.push(...(children.get(pid) ?? []));
    }
    let sum = 0;
    for (const pid of members) {
      const entry = table.get(pid);
      if (!entry) continue;
      sum += entry.rss;
      this.peakSingle = Math.max(this.peakSingle, entry.rss);
      this.cpu.set(`${pid}:${entry.start}`, entry.cpuTicks);
    }
    this.peakTree = Math.max(this.peakTree, sum);
  }

  cpuSeconds(): number {
    let ticks = 0;
    for (const value of this.cpu.values()) ticks += value;
    return ticks / CLOCK_TICKS;
  }
}

interface Measured {
  wallS: number;
  peakTreeBytes: number;
  peakSingleBytes: number;
  cpuS: number;
}

/** Runs a command to completion, logging its output to `logFile`; throws on a non-zero exit. */
async function measure(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; logFile: string },
): Promise<Measured> {
  // GNU time (when present) reports the exact peak of the process it waits for, which a 50 ms poll can miss on short builds.
  const wrapped = GNU_TIME ? ([GNU_TIME, ['-v', command, ...args]] as const) : ([command, args] as const);
  const chunks: Buffer[] = [];
  const started = performance.now();
  const child = spawn(wrapped[0], wrapped[1], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
  const sampler = new TreeSampler(child.pid!, !GNU_TIME);
  const timer = setInterval(() => sampler.sample(), POLL_MS);
  sampler.sample();
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  const wallS = (performance.now() - started) / 1000;
  clearInterval(timer);
  const output = Buffer.concat(chunks).toString('utf8');
  await writeFile(options.logFile, output);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${code}; log ${options.logFile}:\n${output.slice(-3000)}`);
  const maxRssKb = /Maximum resident set size \(kbytes\): (\d+)/.exec(output);
  const exactSingle = maxRssKb ? Number(maxRssKb[1]) * 1024 : 0;
  return {
    wallS,
    peakTreeBytes: Math.max(sampler.peakTree, exactSingle),
    peakSingleBytes: Math.max(sampler.peakSingle, exactSingle),
    cpuS: sampler.cpuSeconds(),
  };
}

/** Number of files, of .html files and total bytes under `dir`. */
async function folderStats(dir: string): Promise<{ files: number; html: number; bytes: number }> {
  const totals = { files: 0, html: 0, bytes: 0 };
  if (!existsSync(dir)) return totals;
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) {
        totals.files++;
        if (entry.name.endsWith('.html')) totals.html++;
        totals.bytes += (await stat(full)).size;
      }
    }
  };
  await walk(dir);
  return totals;
}

// ---------------------------------------------------------------------------------------------
// The peers

/** A bare Astro project: default markdown settings, no integrations, one route rendering HTML. */
async function writeBareAstroProject(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, 'src', 'layouts'), { recursive: true });
  await mkdir(path.join(dir, 'src', 'pages'), { recursive: true });
  const files: Record<string, string> = {
    'package.json': `${JSON.stringify({ name: 'bench-bare-astro', private: true, type: 'module' }, null, 2)}\n`,
    'astro.config.mjs': [
      "import { defineConfig } from 'astro/config';",
      '',
      'export default defineConfig({',
      `  site: '${SITE_URL}',`,
      '  outDir: process.env.BARE_OUT_DIR,',
      '  cacheDir: process.env.BARE_CACHE_DIR,',
      "  build: { format: 'directory' },",
      '});',
      '',
    ].join('\n'),
    'src/content.config.ts': [
      "import { defineCollection } from 'astro:content';",
      "import { glob } from 'astro/loaders';",
      '',
      '// Same files as the full build: articles/ and solutions/ of the generated corpus; no schema.',
      'const docs = defineCollection({',
      "  loader: glob({ pattern: '{articles,solutions}/**/*.md', base: process.env.BARE_CONTENT_DIR! }),",
      '});',
      '',
      'export const collections = { docs };',
      '',
    ].join('\n'),
    'src/layouts/Plain.astro': [
      '---',
      'const { title, lang } = Astro.props;',
      '---',
      '<!doctype html>',
      '<html lang={lang}>',
      '  <head><meta charset="utf-8" /><title>{title}</title></head>',
      '  <body><main><slot /></main></body>',
      '</html>',
      '',
    ].join('\n'),
    'src/pages/[...path].astro': [
      '---',
      "import { getCollection, render } from 'astro:content';",
      "import Plain from '../layouts/Plain.astro';",
      '',
      'export async function getStaticPaths() {',
      "  const docs = await getCollection('docs');",
      '  return docs.map((entry) => ({',
      "    params: { path: (/(^|\\/)solutions\\//.test(entry.filePath ?? '') ? 'solutions/' : 'blog/') + entry.id },",
      '    props: { entry },',
      '  }));',
      '}',
      'const { entry } = Astro.props;',
      'const { Content } = await render(entry);',
      '---',
      '<Plain title={entry.data.title} lang={entry.data.lang}><h1>{entry.data.title}</h1><Content /></Plain>',
      '',
    ].join('\n'),
  };
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
}

/** A plain Hugo site over copies of the same markdown files (articles → /blog/<slug>/, solutions → /solutions/<slug>/). */
async function writeHugoSite(dir: string, contentDir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, 'layouts', '_default'), { recursive: true });
  await mkdir(path.join(dir, 'content'), { recursive: true });
  await cp(path.join(contentDir, 'articles'), path.join(dir, 'content', 'blog'), { recursive: true });
  await cp(path.join(contentDir, 'solutions'), path.join(dir, 'content', 'solutions'), { recursive: true });
  // Front matter is YAML; fields Hugo does not know (excerpt, category, lang, author, ...) land in .Params.
  // Only HTML pages: no taxonomies (the corpus has tags), feeds, sitemap or robots.txt.
  const files: Record<string, string> = {
    'config.toml': [
      `baseURL = "${SITE_URL}/"`,
      'languageCode = "en"',
      'title = "Bench"',
      'disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT"]',
      '',
    ].join('\n'),
    'layouts/_default/single.html':
      '<!doctype html>\n<html lang="{{ .Params.lang | default "en" }}">\n  <head><meta charset="utf-8"><title>{{ .Title }}</title></head>\n  <body><main><h1>{{ .Title }}</h1>{{ .Content }}</main></body>\n</html>\n',
    'layouts/_default/list.html':
      '<!doctype html>\n<html lang="en">\n  <head><meta charset="utf-8"><title>{{ .Title }}</title></head>\n  <body><main><h1>{{ .Title }}</h1><ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul></main></body>\n</html>\n',
  };
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
}

// ---------------------------------------------------------------------------------------------
// One build of one tool

/** The parent's environment without anything that would change the build (origin, drafts, Node flags). */
function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', SITE_URL };
  for (const name of [
    'URL',
    'DEPLOY_PRIME_URL',
    'CONTEXT',
    'PORT',
    'SHOW_DRAFTS',
    'NODE_OPTIONS',
    'CONTENT_DIR',
    'ASTRO_OUT_DIR',
    'GENERATED_DIR',
    'DEPLOY_BLOBS_DIR',
    'ASTRO_CACHE_DIR',
  ])
    delete env[name];
  return env;
}

async function buildOnce(tool: Tool, size: number, run: number, contentDir: string): Promise<BuildRun> {
  const work = path.join(OUT_ROOT, `${size}`, tool);
  const outDir = path.join(work, 'dist');
  const cacheDir = path.join(work, 'cache');
  const sideDir = path.join(work, 'generated');
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const logFile = path.join(OUT_ROOT, 'logs', `${size}-${tool}-${run}.log`);
  // The astro CLI turns on Node's module compile cache (os.tmpdir()/node-compile-cache, keyed by file path): an
  // output path reused by the previous run would let it skip compiling the 50-80 MB data-store chunk (~5 s at 10k).
  const env: NodeJS.ProcessEnv = { ...baseEnv(), NODE_COMPILE_CACHE: path.join(work, 'node-compile-cache') };
  let measured: Measured;
  const load1 = os.loadavg()[0]!;
  if (tool === 'ours') {
    // `npm run build`: astro build, then the Pagefind step in its own process.
    const q = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;
    const steps = `${q(process.execPath)} ${q(ASTRO_BIN.file)} build && ${q(process.execPath)} ${q(path.join(ROOT, 'scripts', 'pagefind-index.ts'))}`;
    measured = await measure('/bin/sh', ['-c', steps], {
      cwd: ROOT,
      env: {
        ...env,
        CONTENT_DIR: contentDir,
        ASTRO_OUT_DIR: outDir,
        GENERATED_DIR: sideDir,
        DEPLOY_BLOBS_DIR: path.join(sideDir, 'deploy-blobs'),
        ASTRO_CACHE_DIR: cacheDir,
      },
      logFile,
    });
  } else if (tool === 'bare') {
    const project = path.join(CORPUS_ROOT, 'bare-astro');
    // Astro keeps generated types in <root>/.astro; drop them so nothing carries over between builds.
    await rm(path.join(project, '.astro'), { recursive: true, force: true });
    measured = await measure(process.execPath, [ASTRO_BIN.file, 'build'], {
      cwd: project,
      env: { ...env, BARE_CONTENT_DIR: contentDir, BARE_OUT_DIR: outDir, BARE_CACHE_DIR: cacheDir },
      logFile,
    });
  } else {
    const site = path.join(CORPUS_ROOT, `hugo-${size}`);
    measured = await measure(HUGO, ['--source', site, '--destination', outDir, '--cacheDir', cacheDir, '--noBuildLock'], {
      cwd: site,
      env,
      logFile,
    });
  }
  const out = await folderStats(outDir);
  const side = await folderStats(sideDir);
  const pagefind = /Pagefind index written \((\d+) HTML files in ([\d.]+) s\)/.exec(await readFile(logFile, 'utf8'));
  return {
    pagefindS: pagefind ? Number(pagefind[2]) : null,
    tool,
    run,
    ...measured,
    htmlPages: out.html,
    files: out.files,
    pagesPerS: out.html / measured.wallS,
    outBytes: out.bytes,
    sideBytes: side.bytes,
    load1,
    log: path.relative(ROOT, logFile),
  };
}

// ---------------------------------------------------------------------------------------------
// Main

const fmt = (value: number, digits = 1): string =>
  value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });

interface Summary {
  wallS: number;
  minWallS: number;
  maxWallS: number;
  htmlPages: number;
  pagesPerS: number;
  peakTreeMB: number;
  peakSingleMB: number;
  cpuS: number;
  outMB: number;
  sideMB: number;
  load1: number;
  pagefindS: number | null;
}

function summarize(list: BuildRun[]): Summary {
  const walls = list.map((r) => r.wallS);
  return {
    wallS: median(walls),
    minWallS: Math.min(...walls),
    maxWallS: Math.max(...walls),
    htmlPages: list[0]!.htmlPages,
    pagesPerS: median(list.map((r) => r.pagesPerS)),
    peakTreeMB: median(list.map((r) => r.peakTreeBytes)) / MB,
    peakSingleMB: median(list.map((r) => r.peakSingleBytes)) / MB,
    cpuS: median(list.map((r) => r.cpuS)),
    outMB: median(list.map((r) => r.outBytes)) / MB,
    sideMB: median(list.map((r) => r.sideBytes)) / MB,
    load1: median(list.map((r) => r.load1)),
    pagefindS: list.every((r) => r.pagefindS !== null) ? median(list.map((r) => r.pagefindS!)) : null,
  };
}

const hugoVersion = await new Promise<string>((resolve) => {
  const child = spawn(HUGO, ['version']);
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.on('close', () => resolve(text.trim().split(' ')[1] ?? 'unknown'));
  child.on('error', () => resolve('missing'));
});
if (hugoVersion === 'missing') throw new Error(`${HUGO} not found (Debian package "hugo")`);

await mkdir(path.join(OUT_ROOT, 'logs'), { recursive: true });
const startedAt = new Date();
const loadAtStart = os.loadavg();
const perSize: { size: number; documents: number; bodyMB: number; runs: BuildRun[]; summary: Record<Tool, Summary> }[] = [];

for (const size of sizes) {
  const contentDir = path.join(CORPUS_ROOT, `content-${size}`);
  const corpus = generateCorpus({ n: size, seed });
  await writeCorpus(corpus, contentDir, path.join(ROOT, 'content'));
  await writeBareAstroProject(path.join(CORPUS_ROOT, 'bare-astro'));
  await writeHugoSite(path.join(CORPUS_ROOT, `hugo-${size}`), contentDir);
  const bodyMB = corpus.documents.reduce((sum, d) => sum + Buffer.byteLength(d.markdown), 0) / MB;
  const all: BuildRun[] = [];
  for (let run = 0; run < runs; run++) {
    // Rotate the order each run so no tool always builds right after another's page-cache churn.
    const order = TOOLS.map((_, i) => TOOLS[(i + run) % TOOLS.length]!);
    for (const tool of order) {
      const result = await buildOnce(tool, size, run, contentDir);
      all.push(result);
      console.error(
        `[${size}] run ${run + 1}/${runs} ${tool}: ${fmt(result.wallS, 2)} s, ${result.htmlPages} html, peak ${fmt(result.peakTreeBytes / MB, 0)} MB, out ${fmt(result.outBytes / MB)} MB, load ${fmt(result.load1, 2)}`,
      );
    }
  }
  const summary = Object.fromEntries(TOOLS.map((tool) => [tool, summarize(all.filter((r) => r.tool === tool))])) as Record<Tool, Summary>;
  perSize.push({ size, documents: corpus.documents.length, bodyMB, runs: all, summary });
}

// Report
const row = (cells: (string | number)[]): string => `| ${cells.join(' | ')} |`;
const cpu = os.cpus();
const lines = [
  `Build benchmark, ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC: seed ${seed}, ${runs} cold build(s) per tool and size (medians; min–max wall in brackets), Node ${process.version}, astro ${ASTRO_BIN.version}, hugo ${hugoVersion}, ${cpu.length} × ${cpu[0]?.model.trim() ?? 'cpu'}, ${fmt(os.totalmem() / 2 ** 30, 0)} GiB, load average ${loadAtStart.map((v) => fmt(v, 2)).join(' ')} at start → ${os
    .loadavg()
    .map((v) => fmt(v, 2))
    .join(' ')} at end`,
  '',
  row(['articles', 'build', 'wall s', 'HTML pages', 'pages/s', 'peak MB (tree)', 'output MB', 'CPU s', 'load avg']),
  row(['---:', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
];
for (const { size, summary } of perSize) {
  for (const tool of TOOLS) {
    const s = summary[tool];
    lines.push(
      row([
        size.toLocaleString('en'),
        LABEL[tool],
        `${fmt(s.wallS, 2)} (${fmt(s.minWallS, 2)}–${fmt(s.maxWallS, 2)})`,
        s.htmlPages.toLocaleString('en'),
        fmt(s.pagesPerS, 0),
        fmt(s.peakTreeMB, 0),
        fmt(s.outMB, 1) + (s.sideMB > 0 ? ` + ${fmt(s.sideMB, 1)}` : ''),
        fmt(s.cpuS, 1),
        fmt(s.load1, 2),
      ]),
    );
  }
}
/** ours / bare Astro wall time of the builds made in the same round (adjacent in time, so under similar load). */
const pairedRatios = (list: BuildRun[]): number[] =>
  [...new Set(list.map((r) => r.run))].map(
    (run) => list.find((r) => r.run === run && r.tool === 'ours')!.wallS / list.find((r) => r.run === run && r.tool === 'bare')!.wallS,
  );
lines.push(
  '',
  row([
    'articles',
    'wall ours / bare Astro (paired rounds: median, min–max)',
    'wall ours / Hugo',
    'peak ours / bare Astro',
    'peak ours / Hugo',
    'Pagefind s (share of ours)',
    'ours without Pagefind / bare Astro',
  ]),
  row(['---:', '---:', '---:', '---:', '---:', '---:', '---:']),
);
for (const { size, summary, runs: list } of perSize) {
  const { ours, bare, hugo } = summary;
  const pf = ours.pagefindS;
  const paired = pairedRatios(list);
  lines.push(
    row([
      size.toLocaleString('en'),
      `${fmt(ours.wallS / bare.wallS, 2)}× (${fmt(median(paired), 2)}×, ${fmt(Math.min(...paired), 2)}–${fmt(Math.max(...paired), 2)})`,
      `${fmt(ours.wallS / hugo.wallS, 1)}×`,
      `${fmt(ours.peakTreeMB / bare.peakTreeMB, 2)}×`,
      `${fmt(ours.peakTreeMB / hugo.peakTreeMB, 1)}×`,
      pf === null ? '–' : `${fmt(pf, 1)} (${fmt((100 * pf) / ours.wallS, 0)}%)`,
      pf === null ? '–' : `${fmt((ours.wallS - pf) / bare.wallS, 2)}×`,
    ]),
  );
}
const goalRow = perSize.find((p) => p.size === GOAL.size);
let goal: { ratio: number; pairedMedian: number; pairedMax: number; wallS: number; peakBytes: number; holds: boolean } | null = null;
if (goalRow) {
  const { ours, bare } = goalRow.summary;
  const ratio = ours.wallS / bare.wallS;
  const paired = pairedRatios(goalRow.runs);
  const peakBytes = ours.peakTreeMB * MB;
  goal = {
    ratio,
    pairedMedian: median(paired),
    pairedMax: Math.max(...paired),
    wallS: ours.wallS,
    peakBytes,
    holds: ratio <= GOAL.maxRatioToBareAstro && ours.wallS < GOAL.maxWallS && peakBytes < GOAL.maxPeakBytes,
  };
  lines.push(
    '',
    `Goal at ${GOAL.size.toLocaleString('en')} articles (full build ≤ ${GOAL.maxRatioToBareAstro}× bare Astro, < ${GOAL.maxWallS} s, < ${GOAL.maxPeakBytes / 1e9} GB peak): ratio of medians ${fmt(ratio, 2)}× ${ratio <= GOAL.maxRatioToBareAstro ? 'met' : 'MISSED'} (paired rounds: median ${fmt(goal.pairedMedian, 2)}×, worst ${fmt(goal.pairedMax, 2)}×), wall ${fmt(ours.wallS, 1)} s ${ours.wallS < GOAL.maxWallS ? 'met' : 'MISSED'}, peak ${fmt(peakBytes / 1e9, 2)} GB ${peakBytes < GOAL.maxPeakBytes ? 'met' : 'MISSED'}: ${goal.holds ? 'HOLDS' : 'DOES NOT HOLD'}.`,
  );
}
lines.push(
  '',
  `- Pages: HTML files in the output folder. Output: bytes of the public output folder${perSize.some((p) => p.summary.ours.sideMB > 0) ? '; "+ N" is what the full build writes to generated/ (catalogue, search index) outside it' : ''}.`,
  `- Peak: highest sum of RSS over the build process and its descendants (Pagefind's indexer, esbuild, ...), sampled every ${POLL_MS} ms from /proc; the largest single process is in the JSON. CPU: user + system seconds of every process of the tree as last sampled (the last ≤ ${POLL_MS} ms of each process are missed).`,
);
console.log(lines.join('\n'));

await writeFile(
  RESULTS_FILE,
  `${JSON.stringify(
    {
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      command: `node bench/build.bench.ts ${argv.join(' ')}`.trim(),
      seed,
      runs,
      machine: {
        node: process.version,
        astro: ASTRO_BIN.version,
        hugo: hugoVersion,
        cpus: cpu.length,
        cpuModel: cpu[0]?.model.trim(),
        totalMemBytes: os.totalmem(),
        kernel: os.release(),
        loadAtStart,
        loadAtEnd: os.loadavg(),
      },
      goal: goal && { ...GOAL, ...goal },
      sizes: perSize.map(({ size, documents, bodyMB, summary, runs: list }) => ({
        size,
        documents,
        bodyMB,
        summary,
        ratios: {
          wallOursWithoutPagefindToBare:
            summary.ours.pagefindS === null ? null : (summary.ours.wallS - summary.ours.pagefindS) / summary.bare.wallS,
          wallOursToBare: summary.ours.wallS / summary.bare.wallS,
          wallOursToHugo: summary.ours.wallS / summary.hugo.wallS,
          peakOursToBare: summary.ours.peakTreeMB / summary.bare.peakTreeMB,
          peakOursToHugo: summary.ours.peakTreeMB / summary.hugo.peakTreeMB,
        },
        runs: list,
      })),
    },
    null,
    2,
  )}\n`,
);
console.error(`wrote ${path.relative(ROOT, RESULTS_FILE)}`);
