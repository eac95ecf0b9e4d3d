/**
 * Build benchmark (issues 7 and 25): the full production build of this site against its peers on
 * the same generated articles (bench/generate-corpus.ts), every build in its own process tree,
 * measured by CPU-seconds of the whole tree first (the machine is shared: wall time swings), then
 * wall time, peak memory of the tree and output size.
 *
 * Builds, each cold (fresh output, caches and Node compile cache) unless it is an edit:
 * - `ours:on-demand`, `ours:build`, `ours:off`: `npm run build` of this repo (astro build, then the
 *   Pagefind step) with OG_IMAGES set explicitly (`--og on-demand,build,off`; default on-demand, the
 *   site's default: the build draws the site-wide card, the og-image function every other on first
 *   request; `build` draws every page's card in the build, as before cards were drawn on demand);
 * - `bare`: a bare Astro project (one layout, a glob collection, one route; HTML only);
 * - `bare-pagefind`: the same, then the Pagefind CLI over its article pages (what Pagefind alone adds to a build);
 * - `hugo`: a plain Hugo site (HTML pages only);
 * - `hugo-full`: Hugo with tag and category pages, pagination, RSS, sitemap and robots.txt, then
 *   the same Pagefind CLI over its pages.
 * With `--edit`, after each cold build of ours and of bare Astro one article is changed (its title,
 * and a paragraph added) and the site built again with the caches the cold build left (Astro's
 * cacheDir; a fresh Node compile cache, as on a new build machine), then the file is restored.
 *
 *     node bench/build.bench.ts [--sizes 1000,10000] [--og on-demand,build,off] [--tools ours,bare,bare-pagefind,hugo,hugo-full]
 *                               [--edit] [--runs 1] [--seed 42] [--heap-mb 8192]
 *
 * Prints markdown tables and writes bench/.out/build-results.json. Scratch: corpora and peer
 * projects in bench/.corpus/build/, outputs, caches and logs in bench/.out/build/. A folder the bench
 * replaces is moved aside and deleted after the last build ({@link discard}).
 * @module
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { argValue, generateCorpus, writeCorpus } from './generate-corpus.ts';
import { median } from './stats.ts';
import { answerHelpFromDoc } from '../scripts/usage.ts';

answerHelpFromDoc(import.meta.url);

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS_ROOT = path.join(ROOT, 'bench', '.corpus', 'build');
const OUT_ROOT = path.join(ROOT, 'bench', '.out', 'build');
const RESULTS_FILE = path.join(ROOT, 'bench', '.out', 'build-results.json');
const USAGE =
  'usage: node bench/build.bench.ts [--sizes 1000,10000] [--og on-demand,build,off] [--tools ours,bare,bare-pagefind,hugo,hugo-full] [--edit] [--runs 1] [--seed 42] [--heap-mb 8192]';

const argv = process.argv.slice(2);
const sizes = (argValue(argv, 'sizes') ?? '1000,10000').split(',').map(Number);
const seed = Number(argValue(argv, 'seed') ?? 42);
const runs = Number(argValue(argv, 'runs') ?? 1);
const OG_SETTINGS = ['on-demand', 'build', 'off'] as const;
const ogSettings = (argValue(argv, 'og') ?? 'on-demand').split(',');
const toolNames = (argValue(argv, 'tools') ?? 'ours,bare,hugo,hugo-full').split(',');
const withEdit = argv.includes('--edit');
/** V8 heap limit for our build's Node processes (NODE_OPTIONS=--max-old-space-size), e.g. 8192 at 100,000 articles; default Node's. */
const heapMb = argValue(argv, 'heap-mb') === undefined ? null : Number(argValue(argv, 'heap-mb'));
if (
  sizes.some((n) => !Number.isInteger(n) || n < 1) ||
  !Number.isInteger(seed) ||
  !Number.isInteger(runs) ||
  runs < 1 ||
  ogSettings.some((o) => !(OG_SETTINGS as readonly string[]).includes(o)) ||
  toolNames.some((t) => !['ours', 'bare', 'bare-pagefind', 'hugo', 'hugo-full'].includes(t)) ||
  (heapMb !== null && (!Number.isInteger(heapMb) || heapMb < 512))
) {
  throw new Error(USAGE);
}

/** Goals at 10,000 articles (issue 25): every feature on, against bare Astro in the same run. */
const GOAL = { size: 10_000, maxCpuRatioToBare: 2, maxPeakBytes: 3e9, maxCpuGrowth1kTo10k: 11, maxEditShareOfCold: 0.25 };
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
const PAGEFIND_CLI = fileURLToPath(new URL('./runner/bin.cjs', import.meta.resolve('pagefind')));
const HUGO = '/usr/bin/hugo';
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
const COMMIT = (() => {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).trim();
    return dirty ? `${head}+changes` : head;
  } catch {
    return 'unknown';
  }
})();

/** One kind of build: ours with an OG_IMAGES setting, or a peer. */
type Variant = `ours:${(typeof OG_SETTINGS)[number]}` | 'bare' | 'bare-pagefind' | 'hugo' | 'hugo-full';
const VARIANTS: Variant[] = [
  ...(toolNames.includes('ours') ? ogSettings.map((og) => `ours:${og}` as Variant) : []),
  ...(['bare', 'bare-pagefind', 'hugo', 'hugo-full'] as const).filter((t) => toolNames.includes(t)),
];
const LABEL: Record<Variant, string> = {
  'ours:on-demand': 'this site, OG_IMAGES=on-demand (every feature; the default)',
  'ours:build': 'this site, OG_IMAGES=build (every card drawn in the build)',
  'ours:off': 'this site, OG_IMAGES=off',
  bare: 'bare Astro (HTML only)',
  'bare-pagefind': 'bare Astro, then Pagefind over its pages',
  hugo: 'Hugo (HTML only)',
  'hugo-full': 'Hugo + taxonomies, pagination, RSS, sitemap, Pagefind',
};
const EDITABLE = (variant: Variant): boolean => variant.startsWith('ours') || variant === 'bare';

interface BuildRun {
  variant: Variant;
  run: number;
  /** A cold build, or the rebuild after one article was edited. */
  kind: 'cold' | 'edit';
  wallS: number;
  htmlPages: number;
  files: number;
  /** Highest sum of RSS over the process and all its descendants, sampled every POLL_MS. */
  peakTreeBytes: number;
  /** Largest RSS of any one process of the tree. */
  peakSingleBytes: number;
  /** CPU seconds (user + system) of every process of the tree, as last sampled. */
  cpuS: number;
  outBytes: number;
  /** Files the build writes outside its public output (ours: generated/). */
  sideBytes: number;
  /** Ours: seconds spent in Pagefind (from the Pagefind step's log line). */
  pagefindS: number | null;
  /** Ours: pages Astro copied from its incremental cache instead of rendering. */
  restoredPages: number | null;
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

/**
 * A Hugo site doing the kinds of work this site does besides its agent surfaces: a page per
 * document, tag and category pages (taxonomies), paginated lists (20 a page), RSS for the home page,
 * sections and terms, a sitemap and robots.txt, and a Pagefind index of the documents (the same
 * Pagefind CLI and options as ours), run as one command like ours.
 */
async function writeHugoFullSite(dir: string, contentDir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, 'layouts', '_default'), { recursive: true });
  await mkdir(path.join(dir, 'content'), { recursive: true });
  await cp(path.join(contentDir, 'articles'), path.join(dir, 'content', 'blog'), { recursive: true });
  await cp(path.join(contentDir, 'solutions'), path.join(dir, 'content', 'solutions'), { recursive: true });
  const list =
    '<!doctype html>\n<html lang="en">\n  <head><meta charset="utf-8"><title>{{ .Title }}</title>{{ with .OutputFormats.Get "rss" }}<link rel="alternate" type="application/rss+xml" href="{{ .RelPermalink }}">{{ end }}</head>\n  <body><main><h1>{{ .Title }}</h1><ul>{{ range .Paginator.Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> <time>{{ .Date.Format "2006-01-02" }}</time> {{ .Params.excerpt }}</li>{{ end }}</ul>{{ with .Paginator }}{{ if .HasPrev }}<a rel="prev" href="{{ .Prev.URL }}">newer</a>{{ end }}{{ if .HasNext }}<a rel="next" href="{{ .Next.URL }}">older</a>{{ end }}{{ end }}</main></body>\n</html>\n';
  const files: Record<string, string> = {
    'config.toml': [
      `baseURL = "${SITE_URL}/"`,
      'languageCode = "en"',
      'title = "Bench"',
      'paginate = 20',
      'enableRobotsTXT = true',
      '[taxonomies]',
      '  tag = "tags"',
      '  category = "category"',
      '',
    ].join('\n'),
    'layouts/_default/single.html':
      '<!doctype html>\n<html lang="{{ .Params.lang | default "en" }}">\n  <head><meta charset="utf-8"><title>{{ .Title }}</title></head>\n  <body><main data-pagefind-body><h1>{{ .Title }}</h1>{{ .Content }}<ul>{{ range .Params.tags }}<li><a href="{{ (print "/tags/" (. | urlize)) | relURL }}">{{ . }}</a></li>{{ end }}</ul></main></body>\n</html>\n',
    'layouts/_default/list.html': list,
    'layouts/_default/terms.html':
      '<!doctype html>\n<html lang="en">\n  <head><meta charset="utf-8"><title>{{ .Title }}</title></head>\n  <body><main><h1>{{ .Title }}</h1><ul>{{ range .Data.Terms.Alphabetical }}<li><a href="{{ .Page.RelPermalink }}">{{ .Page.Title }}</a> ({{ .Count }})</li>{{ end }}</ul></main></body>\n</html>\n',
  };
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
}

// ---------------------------------------------------------------------------------------------
// One build

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
    'OG_IMAGES',
  ])
    delete env[name];
  return env;
}

/**
 * Where replaced folders wait until the last build is measured. On ext4 without a journal (this machine class), an
 * inode freed in the last 60 s (300 s while its inode table block is unwritten) is not reused: every file created
 * after a large delete pays for a scan past the freed ones (Linux fs/ext4/ialloc.c, `recently_deleted`). Deleting the
 * last build's 40,000 files just before the next build added seconds of system time to it that no build on a fresh
 * machine pays (docs/benchmarks-history.md, "Build: what the bench's own deletes cost").
 */
const TRASH_DIR = path.join(OUT_ROOT, '.trash');
let discarded = 0;

/** Moves `dir` (if it exists) out of the way instead of deleting it: a rename frees no inode. */
async function discard(dir: string): Promise<void> {
  if (!existsSync(dir)) return;
  await mkdir(TRASH_DIR, { recursive: true });
  await rename(dir, path.join(TRASH_DIR, `${process.pid}-${discarded++}`));
}

const q = (arg: string): string => `'${arg.replace(/'/g, `'\\''`)}'`;

async function buildOnce(variant: Variant, size: number, run: number, contentDir: string, kind: 'cold' | 'edit'): Promise<BuildRun> {
  const work = path.join(OUT_ROOT, `${size}`, variant.replace(':', '-'));
  const outDir = path.join(work, 'dist');
  const cacheDir = path.join(work, 'cache');
  const sideDir = path.join(work, 'generated');
  // A cold build starts from nothing; an edit keeps what a build machine keeps between builds (the
  // cache folder) and, like a fresh checkout on Netlify, no output folders (Astro would spend seconds emptying them).
  if (kind === 'cold') await discard(work);
  else for (const dir of [outDir, sideDir]) await discard(dir);
  await mkdir(work, { recursive: true });
  const logFile = path.join(OUT_ROOT, 'logs', `${size}-${variant.replace(':', '-')}-${run}-${kind}.log`);
  // The astro CLI turns on Node's module compile cache (os.tmpdir()/node-compile-cache, keyed by file path), which a
  // new build machine does not have: every build gets a fresh one, or a rebuild would skip compiling the data-store chunk.
  const compileCache = path.join(work, `node-compile-cache-${kind}`);
  await discard(compileCache);
  const env: NodeJS.ProcessEnv = { ...baseEnv(), NODE_COMPILE_CACHE: compileCache };
  let measured: Measured;
  const load1 = os.loadavg()[0]!;
  if (variant.startsWith('ours')) {
    // `npm run build`: astro build, then the Pagefind step in its own process.
    const steps = `${q(process.execPath)} ${q(ASTRO_BIN.file)} build && ${q(process.execPath)} ${q(path.join(ROOT, 'scripts', 'pagefind-index.ts'))}`;
    measured = await measure('/bin/sh', ['-c', steps], {
      cwd: ROOT,
      env: {
        ...env,
        OG_IMAGES: variant.slice('ours:'.length),
        ...(heapMb === null ? {} : { NODE_OPTIONS: `--max-old-space-size=${heapMb}` }),
        CONTENT_DIR: contentDir,
        ASTRO_OUT_DIR: outDir,
        GENERATED_DIR: sideDir,
        DEPLOY_BLOBS_DIR: path.join(sideDir, 'deploy-blobs'),
        ASTRO_CACHE_DIR: cacheDir,
      },
      logFile,
    });
  } else if (variant === 'bare' || variant === 'bare-pagefind') {
    const project = path.join(CORPUS_ROOT, 'bare-astro');
    // Astro keeps generated types in <root>/.astro; drop them so nothing carries over between builds.
    await discard(path.join(project, '.astro'));
    const astro = `${q(process.execPath)} ${q(ASTRO_BIN.file)} build`;
    // The same Pagefind CLI and options as Hugo full's, over every article page bare Astro wrote.
    const pagefind = `${q(process.execPath)} ${q(PAGEFIND_CLI)} --site ${q(outDir)} --glob '{blog,solutions}/*/index.html' --max-fragments 500`;
    measured = await measure('/bin/sh', ['-c', variant === 'bare' ? astro : `${astro} && ${pagefind}`], {
      cwd: project,
      env: { ...env, BARE_CONTENT_DIR: contentDir, BARE_OUT_DIR: outDir, BARE_CACHE_DIR: cacheDir },
      logFile,
    });
  } else {
    const site = path.join(CORPUS_ROOT, `${variant}-${size}`);
    const hugo = `${q(HUGO)} --source ${q(site)} --destination ${q(outDir)} --cacheDir ${q(cacheDir)} --noBuildLock`;
    const pagefind = `${q(process.execPath)} ${q(PAGEFIND_CLI)} --site ${q(outDir)} --glob '{blog,solutions}/*/index.html' --max-fragments 500`;
    measured = await measure('/bin/sh', ['-c', variant === 'hugo-full' ? `${hugo} && ${pagefind}` : hugo], { cwd: site, env, logFile });
  }
  const out = await folderStats(outDir);
  const side = await folderStats(sideDir);
  const log = await readFile(logFile, 'utf8');
  const pagefind = /Pagefind index written \((\d+) HTML files in ([\d.]+) s\)/.exec(log);
  return {
    variant,
    run,
    kind,
    ...measured,
    htmlPages: out.html,
    files: out.files,
    outBytes: out.bytes,
    sideBytes: side.bytes,
    pagefindS: pagefind ? Number(pagefind[2]) : null,
    restoredPages: variant.startsWith('ours') ? (log.match(/\((?:restored|cached)\)/g) ?? []).length : null,
    load1,
    log: path.relative(ROOT, logFile),
  };
}

/** The edit: one article near the middle of the list gets a new title and one more paragraph. Returns how to undo it. */
async function editOneArticle(contentDir: string): Promise<() => Promise<void>> {
  const folder = path.join(contentDir, 'articles');
  const names = (await readdir(folder)).filter((n) => n.endsWith('.md')).sort();
  const file = path.join(folder, names[Math.floor(names.length / 2)]!);
  const original = await readFile(file, 'utf8');
  const edited = `${original.replace(/^title: .*$/m, 'title: "Edited: what changed after the review"')}\n\nOne more paragraph, added by the edit.\n`;
  await writeFile(file, edited);
  return () => writeFile(file, original);
}

// ---------------------------------------------------------------------------------------------
// Main

const fmt = (value: number, digits = 1): string =>
  value.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });

interface Summary {
  cpuS: number;
  wallS: number;
  minWallS: number;
  maxWallS: number;
  htmlPages: number;
  cpuMsPerPage: number;
  peakTreeMB: number;
  peakSingleMB: number;
  outMB: number;
  sideMB: number;
  load1: number;
  pagefindS: number | null;
  restoredPages: number | null;
}

function summarize(list: BuildRun[]): Summary | null {
  if (!list.length) return null;
  const walls = list.map((r) => r.wallS);
  const cpuS = median(list.map((r) => r.cpuS));
  return {
    cpuS,
    wallS: median(walls),
    minWallS: Math.min(...walls),
    maxWallS: Math.max(...walls),
    htmlPages: list[0]!.htmlPages,
    cpuMsPerPage: (1000 * cpuS) / list[0]!.htmlPages,
    peakTreeMB: median(list.map((r) => r.peakTreeBytes)) / MB,
    peakSingleMB: median(list.map((r) => r.peakSingleBytes)) / MB,
    outMB: median(list.map((r) => r.outBytes)) / MB,
    sideMB: median(list.map((r) => r.sideBytes)) / MB,
    load1: median(list.map((r) => r.load1)),
    pagefindS: list.every((r) => r.pagefindS !== null) ? median(list.map((r) => r.pagefindS!)) : null,
    restoredPages: list.every((r) => r.restoredPages !== null) ? median(list.map((r) => r.restoredPages!)) : null,
  };
}

const hugoVersion = await new Promise<string>((resolve) => {
  const child = spawn(HUGO, ['version']);
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.on('close', () => resolve(text.trim().split(' ')[1] ?? 'unknown'));
  child.on('error', () => resolve('missing'));
});
if (hugoVersion === 'missing' && VARIANTS.some((v) => v.startsWith('hugo'))) throw new Error(`${HUGO} not found (Debian package "hugo")`);

await mkdir(path.join(OUT_ROOT, 'logs'), { recursive: true });
// What an interrupted run left aside; deleting it now may slow this run's first builds (see TRASH_DIR).
if (existsSync(TRASH_DIR)) {
  console.error(`deleting ${TRASH_DIR}, left by an earlier run: the first builds may pay for it in system time`);
  await rm(TRASH_DIR, { recursive: true, force: true });
}
const startedAt = new Date();
const loadAtStart = os.loadavg();
interface SizeResult {
  size: number;
  documents: number;
  bodyMB: number;
  runs: BuildRun[];
  cold: Partial<Record<Variant, Summary>>;
  edit: Partial<Record<Variant, Summary>>;
}
const perSize: SizeResult[] = [];

for (const size of sizes) {
  const contentDir = path.join(CORPUS_ROOT, `content-${size}`);
  const corpus = generateCorpus({ n: size, seed });
  // Each writer starts from an empty folder: the old one goes aside first, so writing it deletes nothing.
  await discard(contentDir);
  await writeCorpus(corpus, contentDir, path.join(ROOT, 'content'));
  await discard(path.join(CORPUS_ROOT, 'bare-astro'));
  await writeBareAstroProject(path.join(CORPUS_ROOT, 'bare-astro'));
  for (const hugo of ['hugo', 'hugo-full'] as const) await discard(path.join(CORPUS_ROOT, `${hugo}-${size}`));
  if (VARIANTS.includes('hugo')) await writeHugoSite(path.join(CORPUS_ROOT, `hugo-${size}`), contentDir);
  if (VARIANTS.includes('hugo-full')) await writeHugoFullSite(path.join(CORPUS_ROOT, `hugo-full-${size}`), contentDir);
  const bodyMB = corpus.documents.reduce((sum, d) => sum + Buffer.byteLength(d.markdown), 0) / MB;
  const all: BuildRun[] = [];
  for (let run = 0; run < runs; run++) {
    // Rotate the order each run so no build always follows another's page-cache churn.
    const order = VARIANTS.map((_, i) => VARIANTS[(i + run) % VARIANTS.length]!);
    for (const variant of order) {
      const kinds: ('cold' | 'edit')[] = withEdit && EDITABLE(variant) ? ['cold', 'edit'] : ['cold'];
      for (const kind of kinds) {
        const undo = kind === 'edit' ? await editOneArticle(contentDir) : null;
        try {
          const result = await buildOnce(variant, size, run, contentDir, kind);
          all.push(result);
          console.error(
            `[${size}] run ${run + 1}/${runs} ${variant} ${kind}: ${fmt(result.cpuS)} CPU-s, ${fmt(result.wallS, 1)} s wall, ${result.htmlPages} html, peak ${fmt(result.peakTreeBytes / MB, 0)} MB, out ${fmt(result.outBytes / MB)} MB${result.restoredPages ? `, ${result.restoredPages} files from the cache` : ''}, load ${fmt(result.load1, 2)}`,
          );
        } finally {
          await undo?.();
        }
      }
    }
  }
  const pick = (kind: 'cold' | 'edit'): Partial<Record<Variant, Summary>> =>
    Object.fromEntries(
      VARIANTS.map((v) => [v, summarize(all.filter((r) => r.variant === v && r.kind === kind))]).filter(([, s]) => s !== null),
    );
  perSize.push({ size, documents: corpus.documents.length, bodyMB, runs: all, cold: pick('cold'), edit: pick('edit') });
}

// Every build is measured: what was set aside can go (several GB at 10,000 articles and three runs).
await rm(TRASH_DIR, { recursive: true, force: true });

// Report
const row = (cells: (string | number)[]): string => `| ${cells.join(' | ')} |`;
const cpu = os.cpus();
const lines = [
  `Build benchmark at commit ${COMMIT}, ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC: seed ${seed}, ${runs} round(s) (medians), Node ${process.version}, astro ${ASTRO_BIN.version}, hugo ${hugoVersion}, ${cpu.length} × ${cpu[0]?.model.trim() ?? 'cpu'}, ${fmt(os.totalmem() / 2 ** 30, 0)} GiB, load average ${loadAtStart.map((v) => fmt(v, 2)).join(' ')} at start → ${os
    .loadavg()
    .map((v) => fmt(v, 2))
    .join(' ')} at end`,
  '',
  row(['articles', 'build', 'CPU s', 'wall s', 'HTML pages', 'CPU ms / HTML page', 'peak MB (tree)', 'output MB']),
  row(['---:', '---', '---:', '---:', '---:', '---:', '---:', '---:']),
];
for (const { size, cold } of perSize) {
  for (const variant of VARIANTS) {
    const s = cold[variant];
    if (!s) continue;
    lines.push(
      row([
        size.toLocaleString('en'),
        LABEL[variant],
        `**${fmt(s.cpuS)}**`,
        `${fmt(s.wallS, 1)} (${fmt(s.minWallS, 1)}–${fmt(s.maxWallS, 1)})`,
        s.htmlPages.toLocaleString('en'),
        fmt(s.cpuMsPerPage, 2),
        fmt(s.peakTreeMB, 0),
        fmt(s.outMB, 1) + (s.sideMB > 0 ? ` + ${fmt(s.sideMB, 1)}` : ''),
      ]),
    );
  }
}
const ratio = (a: Summary | undefined, b: Summary | undefined): string => (a && b ? `${fmt(a.cpuS / b.cpuS, 2)}×` : '–');
lines.push(
  '',
  row(['articles', 'build', 'CPU / bare Astro', 'CPU / Hugo full', 'Pagefind s', 'CPU vs the previous size']),
  row(['---:', '---', '---:', '---:', '---:', '---:']),
);
for (const [i, { size, cold }] of perSize.entries()) {
  for (const variant of VARIANTS.filter((v) => v.startsWith('ours') || v === 'hugo-full' || v === 'bare-pagefind')) {
    const s = cold[variant];
    if (!s) continue;
    const previous = perSize[i - 1]?.cold[variant];
    lines.push(
      row([
        size.toLocaleString('en'),
        LABEL[variant],
        ratio(s, cold.bare),
        variant === 'hugo-full' ? '–' : ratio(s, cold['hugo-full']),
        s.pagefindS === null ? '–' : fmt(s.pagefindS, 1),
        previous ? `${fmt(s.cpuS / previous.cpuS, 1)}× for ${fmt(size / perSize[i - 1]!.size, 0)}× the articles` : '–',
      ]),
    );
  }
}
if (withEdit) {
  lines.push(
    '',
    row([
      'articles',
      'build',
      'cold CPU s',
      'one article edited: CPU s',
      'edit / cold',
      'wall s',
      'files copied from the cache (pages, OG images)',
    ]),
    row(['---:', '---', '---:', '---:', '---:', '---:', '---:']),
  );
  for (const { size, cold, edit } of perSize) {
    for (const variant of VARIANTS.filter(EDITABLE)) {
      const c = cold[variant];
      const e = edit[variant];
      if (!c || !e) continue;
      lines.push(
        row([
          size.toLocaleString('en'),
          LABEL[variant],
          fmt(c.cpuS),
          `**${fmt(e.cpuS)}**`,
          `${fmt((100 * e.cpuS) / c.cpuS, 0)} %`,
          fmt(e.wallS, 1),
          e.restoredPages === null
            ? '–'
            : `${e.restoredPages.toLocaleString('en')} (${e.htmlPages.toLocaleString('en')} HTML pages in the site)`,
        ]),
      );
    }
  }
}

// Goals (issue 25), at the commit measured.
const goals: { goal: string; measured: string; met: boolean }[] = [];
const at10k = perSize.find((p) => p.size === GOAL.size);
const at1k = perSize.find((p) => p.size === GOAL.size / 10);
for (const variant of VARIANTS.filter((v) => v.startsWith('ours'))) {
  const s = at10k?.cold[variant];
  if (!s) continue;
  const bare = at10k!.cold.bare;
  if (bare)
    goals.push({
      goal: `${LABEL[variant]}: CPU ≤ ${GOAL.maxCpuRatioToBare}× bare Astro at 10,000 (cold)`,
      measured: `${fmt(s.cpuS)} / ${fmt(bare.cpuS)} CPU-s = ${fmt(s.cpuS / bare.cpuS, 2)}×`,
      met: s.cpuS / bare.cpuS <= GOAL.maxCpuRatioToBare,
    });
  goals.push({
    goal: `${LABEL[variant]}: peak RSS ≤ ${GOAL.maxPeakBytes / 1e9} GB at 10,000`,
    measured: `${fmt(s.peakTreeMB / 1000, 2)} GB`,
    met: s.peakTreeMB * MB <= GOAL.maxPeakBytes,
  });
  const small = at1k?.cold[variant];
  if (small)
    goals.push({
      goal: `${LABEL[variant]}: CPU at 10,000 ≤ ${GOAL.maxCpuGrowth1kTo10k}× CPU at 1,000`,
      measured: `${fmt(s.cpuS / small.cpuS, 1)}×`,
      met: s.cpuS / small.cpuS <= GOAL.maxCpuGrowth1kTo10k,
    });
  const e = at10k!.edit[variant];
  if (e)
    goals.push({
      goal: `${LABEL[variant]}: one article edited at 10,000 ≤ ${100 * GOAL.maxEditShareOfCold} % of a cold build's CPU`,
      measured: `${fmt(e.cpuS)} / ${fmt(s.cpuS)} CPU-s = ${fmt((100 * e.cpuS) / s.cpuS, 0)} %`,
      met: e.cpuS / s.cpuS <= GOAL.maxEditShareOfCold,
    });
}
if (goals.length) {
  lines.push('', `Goals (issue 25), commit ${COMMIT}:`, '');
  for (const g of goals) lines.push(`- ${g.goal}: ${g.measured}: **${g.met ? 'met' : 'MISSED'}**`);
}
lines.push(
  '',
  '- CPU: user + system seconds of every process of the build (Pagefind, esbuild, Hugo, ...), from /proc, sampled every 50 ms (the last ≤ 50 ms of each process are missed). Peak: highest sum of RSS over the tree. Pages: HTML files in the output folder. Output: bytes of the public folder; "+ N" is what our build writes to generated/ (catalogue, search index, deploy blobs).',
);
console.log(lines.join('\n'));

await writeFile(
  RESULTS_FILE,
  `${JSON.stringify(
    {
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      commit: COMMIT,
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
      goals,
      sizes: perSize,
    },
    null,
    2,
  )}\n`,
);
console.error(`wrote ${path.relative(ROOT, RESULTS_FILE)}`);
