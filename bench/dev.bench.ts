/**
 * Dev-loop benchmark (issue 28, item 2): `npm run dev` of this site to its first article page,
 * against Starlight (the peer the issue names) with the same articles, each dev server in its own
 * process tree, measured by CPU-seconds of the whole tree first (the machine is shared: wall time
 * swings), then wall time. Each tool starts `--runs` times in turn; the first start of each has
 * cold Vite and Astro caches (deleted first), the others are warm, as an author's second start is.
 *
 *     node bench/dev.bench.ts [--runs 3] [--tools ours,starlight]
 *
 * Starlight is installed from npm once into bench/.corpus/dev/starlight (astro as ours, the
 * Starlight release that supports it), its docs are this repository's English articles with
 * their title and summary as Starlight's front matter. Prints a markdown table and writes
 * bench/.out/dev-results.json.
 * @module
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, treeCpuSeconds } from '../tests/support/dev-server.ts';
import { argValue } from './generate-corpus.ts';
import { median } from './stats.ts';
import { answerHelpFromDoc } from '../scripts/usage.ts';

answerHelpFromDoc(import.meta.url);

const ROOT = path.resolve(import.meta.dirname, '..');
const STARLIGHT_DIR = path.join(ROOT, 'bench', '.corpus', 'dev', 'starlight');
const RESULTS_FILE = path.join(ROOT, 'bench', '.out', 'dev-results.json');
/** The Starlight release whose peer range holds our Astro (7.3). */
const STARLIGHT_VERSION = '0.42.4';
/** The article both sites serve first. */
const ARTICLE = 'llm-gateway-token-budgets';
const FIRST_PAGE_TIMEOUT_MS = 300_000;
const REQUEST_TIMEOUT_MS = 20_000;

interface Tool {
  name: string;
  cwd: string;
  command: string[];
  pagePath: string;
  /** Caches a cold start goes without. */
  caches: string[];
}

const astroVersion = (JSON.parse(readFileSync(path.join(ROOT, 'node_modules', 'astro', 'package.json'), 'utf8')) as { version: string })
  .version;

/** A Starlight project over the English articles (front matter: title and description only). */
function setUpStarlight(): void {
  const docs = path.join(STARLIGHT_DIR, 'src', 'content', 'docs');
  mkdirSync(docs, { recursive: true });
  for (const name of readdirSync(path.join(ROOT, 'content', 'articles')).filter((n) => n.endsWith('.md') && !n.endsWith('-zh.md'))) {
    const source = readFileSync(path.join(ROOT, 'content', 'articles', name), 'utf8');
    const [, frontMatter = '', body = ''] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(source) ?? [];
    // As JSON strings (valid YAML whatever they hold), the quotes of the source's own quoting removed.
    const field = (key: string): string =>
      JSON.stringify((new RegExp(`^${key}: (.*)$`, 'm').exec(frontMatter)?.[1] ?? '').trim().replace(/^"(.*)"$/, '$1'));
    writeFileSync(path.join(docs, name), `---\ntitle: ${field('title')}\ndescription: ${field('excerpt')}\n---\n${body}`);
  }
  writeFileSync(
    path.join(STARLIGHT_DIR, 'package.json'),
    JSON.stringify(
      {
        name: 'dev-bench-starlight',
        private: true,
        type: 'module',
        dependencies: { astro: astroVersion, '@astrojs/starlight': STARLIGHT_VERSION },
      },
      null,
      2,
    ),
  );
  writeFileSync(
    path.join(STARLIGHT_DIR, 'astro.config.mjs'),
    "import { defineConfig } from 'astro/config';\nimport starlight from '@astrojs/starlight';\n" +
      "export default defineConfig({ integrations: [starlight({ title: 'Bench' })] });\n",
  );
  writeFileSync(
    path.join(STARLIGHT_DIR, 'src', 'content.config.ts'),
    "import { defineCollection } from 'astro:content';\nimport { docsLoader } from '@astrojs/starlight/loaders';\n" +
      "import { docsSchema } from '@astrojs/starlight/schema';\n" +
      'export const collections = { docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }) };\n',
  );
  if (!existsSync(path.join(STARLIGHT_DIR, 'node_modules', '@astrojs', 'starlight'))) {
    console.error(`installing Starlight ${STARLIGHT_VERSION} with astro ${astroVersion} into ${path.relative(ROOT, STARLIGHT_DIR)} ...`);
    const installed = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: STARLIGHT_DIR, stdio: 'inherit' });
    if (installed.status !== 0) throw new Error('npm install of Starlight failed');
  }
}

const TOOLS: Record<string, () => Tool> = {
  ours: () => ({
    name: 'ours (npm run dev)',
    cwd: ROOT,
    command: ['npm', 'run', 'dev', '--', '--host', '127.0.0.1'],
    pagePath: `/blog/${ARTICLE}`,
    caches: [path.join(ROOT, 'node_modules', '.vite'), path.join(ROOT, 'node_modules', '.astro')],
  }),
  starlight: () => {
    setUpStarlight();
    return {
      name: `starlight ${STARLIGHT_VERSION}`,
      cwd: STARLIGHT_DIR,
      command: [path.join(STARLIGHT_DIR, 'node_modules', '.bin', 'astro'), 'dev', '--host', '127.0.0.1'],
      pagePath: `/${ARTICLE}/`,
      caches: [
        path.join(STARLIGHT_DIR, 'node_modules', '.vite'),
        path.join(STARLIGHT_DIR, 'node_modules', '.astro'),
        path.join(STARLIGHT_DIR, '.astro'),
      ],
    };
  },
};

/** One start: the first page's wall seconds and the tree's CPU-seconds by then. */
async function start(tool: Tool, cold: boolean): Promise<{ wallSeconds: number; cpuSeconds: number }> {
  if (cold) for (const cache of tool.caches) rmSync(cache, { recursive: true, force: true });
  const port = await freePort();
  const began = performance.now();
  const child = spawn(tool.command[0]!, [...tool.command.slice(1), '--port', String(port)], {
    cwd: tool.cwd,
    env: { ...process.env, PORT: String(port), ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}${tool.pagePath}`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        await response.arrayBuffer();
        if (response.status === 200) return { wallSeconds: (performance.now() - began) / 1000, cpuSeconds: treeCpuSeconds(child.pid!) };
      } catch {
        // not listening yet
      }
      if (child.exitCode !== null) throw new Error(`${tool.name} exited:\n${output}`);
      if (performance.now() - began > FIRST_PAGE_TIMEOUT_MS)
        throw new Error(`${tool.name}: no page within ${FIRST_PAGE_TIMEOUT_MS} ms\n${output}`);
      await sleep(100);
    }
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await Promise.race([new Promise((resolve) => child.once('exit', resolve)), sleep(10_000)]);
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  }
}

const runs = Number(argValue(process.argv, 'runs') ?? 3);
const names = (argValue(process.argv, 'tools') ?? 'ours,starlight').split(',');
const results: { tool: string; cold: { wallSeconds: number; cpuSeconds: number }; warm: { wallSeconds: number; cpuSeconds: number }[] }[] =
  [];
for (const name of names) {
  const make = TOOLS[name];
  if (!make) throw new Error(`unknown tool ${name}: ${Object.keys(TOOLS).join(', ')}`);
  const tool = make();
  const cold = await start(tool, true);
  const warm = [];
  for (let i = 1; i < runs; i++) warm.push(await start(tool, false));
  results.push({ tool: tool.name, cold, warm });
  console.error(
    `${tool.name}: cold ${cold.cpuSeconds.toFixed(1)} CPU-s; warm ${warm.map((w) => w.cpuSeconds.toFixed(1)).join(', ')} CPU-s`,
  );
}
mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
writeFileSync(RESULTS_FILE, `${JSON.stringify({ at: new Date().toISOString(), runs, results }, null, 2)}\n`);
const f = (n: number): string => n.toFixed(1);
console.log('| dev server, first article page | cold CPU-s | cold wall s | warm CPU-s (median) | warm wall s (median) |');
console.log('|---|---:|---:|---:|---:|');
for (const { tool, cold, warm } of results)
  console.log(
    `| ${tool} | ${f(cold.cpuSeconds)} | ${f(cold.wallSeconds)} | ${warm.length ? f(median(warm.map((w) => w.cpuSeconds))) : '–'} | ${
      warm.length ? f(median(warm.map((w) => w.wallSeconds))) : '–'
    } |`,
  );
