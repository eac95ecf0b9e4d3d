/**
 * What an Open Graph card costs when the og-image function draws it on demand (issue 25): each run is
 * a fresh Node process (a new function instance) that imports `netlify/functions/og-image.mts` and
 * answers, in order,
 * 1. an English article's card, the first it is asked for (cold: fonts read, satori's layout engine
 *    started, the frame drawn);
 * 2. another English article's card (warm: a new card, fonts and frame ready);
 * 3. a Chinese article's card (the Chinese frame and the CJK font files parsed: first of its language);
 * 4. another Chinese article's card (warm);
 * 5. the first card again with its ETag in If-None-Match (304: what a revalidating browser costs);
 * 6. an unknown page (404) and the first card with a query string (301): what abuse costs.
 * CPU is the process's own (process.cpuUsage: every thread, libvips' included), per answer; the
 * import (Node stripping the types of the sources, as `npm start` loads functions; Netlify loads one
 * bundle) is reported apart. Median of `--runs` processes, over the current build's card file
 * (generated/data/og/cards.json).
 *
 *     node bench/og-image.bench.ts [--runs 10]
 *
 * Needs a build (`npm run build`). Writes bench/.out/og-image.json.
 * @module
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { argValue } from './generate-corpus.ts';
import { answerHelpFromDoc } from '../scripts/usage.ts';
import { median } from './stats.ts';

answerHelpFromDoc(import.meta.url);

const ROOT = path.resolve(import.meta.dirname, '..');
const CARDS_FILE = path.join(ROOT, 'generated', 'data', 'og', 'cards.json');
const OUT_FILE = path.join(ROOT, 'bench', '.out', 'og-image.json');
const USAGE = 'usage: node bench/og-image.bench.ts [--runs 10]';

/** One answer as the child measured it. */
interface Step {
  name: string;
  status: number;
  cpuMs: number;
  wallMs: number;
  bytes: number;
}

/** The child: one function instance, the steps above, printed as JSON on stdout. */
async function child(cards: readonly string[]): Promise<void> {
  const [en1, en2, zh1, zh2] = cards as [string, string, string, string];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const { default: handler } = (await import(pathToFileURL(path.join(ROOT, 'netlify', 'functions', 'og-image.mts')).href)) as {
    default: (req: Request, context: object) => Promise<Response>;
  };
  const cpuMs = (since: NodeJS.CpuUsage): number => {
    const d = process.cpuUsage(since);
    return (d.user + d.system) / 1000;
  };
  const steps: Step[] = [{ name: 'import', status: 0, cpuMs: cpuMs(cpu0), wallMs: performance.now() - t0, bytes: 0 }];
  const context = { ip: '127.0.0.1', waitUntil() {} };
  let etag = '';
  const ask = async (name: string, pathname: string, headers: Record<string, string> = {}): Promise<void> => {
    const cpu = process.cpuUsage();
    const t = performance.now();
    const res = await handler(new Request(new URL(pathname, 'http://localhost:8888'), { headers }), context);
    const bytes = (await res.arrayBuffer()).byteLength;
    steps.push({ name, status: res.status, cpuMs: cpuMs(cpu), wallMs: performance.now() - t, bytes });
    if (name === 'first card (cold instance)') etag = res.headers.get('etag') ?? '';
  };
  await ask('first card (cold instance)', en1);
  await ask('another English card (warm)', en2);
  await ask('first Chinese card (its frame and CJK fonts)', zh1);
  await ask('another Chinese card (warm)', zh2);
  await ask('first card again, If-None-Match (304)', en1, { 'if-none-match': etag });
  await ask('unknown page (404)', '/og/blog/no-such-article.png');
  await ask('query string (301)', `${en1}?utm_source=x`);
  process.stdout.write(JSON.stringify(steps));
}

async function main(): Promise<void> {
  const runs = Number(argValue(process.argv.slice(2), 'runs') ?? 10);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(USAGE);
  if (!existsSync(CARDS_FILE)) throw new Error(`${CARDS_FILE} is missing: run npm run build first`);
  const rows = JSON.parse(readFileSync(CARDS_FILE, 'utf8')) as [string, string, string, string][];
  const articles = (lang: string) =>
    rows.filter(([image, , , l]) => l === lang && /^\/og\/blog\/[^/]+\.png$/.test(image)).map(([image]) => image);
  const cards = [...articles('en').slice(0, 2), ...articles('zh').slice(0, 2)];
  if (cards.length < 4) throw new Error('the build has fewer than two English and two Chinese article cards (OG_IMAGES=off?)');
  const all: Step[][] = [];
  for (let run = 0; run < runs; run++) {
    const { stdout } = await promisify(execFile)(process.execPath, [import.meta.filename, '--child', ...cards], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'production' },
      maxBuffer: 1 << 20,
    });
    all.push(JSON.parse(stdout) as Step[]);
  }
  const names = all[0]!.map((s) => s.name);
  const summary = names.map((name, i) => ({
    name,
    status: all[0]![i]!.status,
    cpuMs: median(all.map((steps) => steps[i]!.cpuMs)),
    wallMs: median(all.map((steps) => steps[i]!.wallMs)),
    bytes: all[0]![i]!.bytes,
  }));
  const fmt = (n: number): string => (n >= 10 ? n.toFixed(0) : n.toFixed(1));
  console.log(`og-image function, ${runs} fresh processes, cards ${cards.join(', ')}; load average ${os.loadavg()[0]!.toFixed(1)}`);
  console.log('| answer | status | CPU ms (median) | wall ms (median) | bytes |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const s of summary)
    console.log(`| ${s.name} | ${s.status || '–'} | ${fmt(s.cpuMs)} | ${fmt(s.wallMs)} | ${s.bytes.toLocaleString('en')} |`);
  mkdirSync(path.dirname(OUT_FILE), { recursive: true });
  writeFileSync(OUT_FILE, `${JSON.stringify({ runs, cards, summary, all }, null, 2)}\n`);
}

const argv = process.argv.slice(2);
if (argv.includes('--help')) console.log(USAGE);
else if (argv[0] === '--child') await child(argv.slice(1));
else await main();
