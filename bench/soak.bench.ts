/**
 * Soak (issue 7): mixed traffic through the local runtime for `--minutes` (default 5): search, MCP
 * tools/call, OAuth token, static page, tweets and health, round-robin on every connection. Memory is
 * sampled every 5 s: RSS of the runtime's whole process tree (the warm runtime is one Node process;
 * the emulator adds function workers and the Deno edge-function server) from /proc, and the runtime process's
 * heap after a forced GC (over IPC; the runtime is a child process, so this process's own heap is
 * the load generator's and not reported). Reports the least-squares slope (MB/min) over the second
 * half, errors (must be 0) and a verdict. Writes bench/.out/soak.json.
 *
 *     node bench/soak.bench.ts [--minutes 5] [--connections 4] [--mode warm|emulator] [--edge on|off]
 *
 * Needs a build: `node scripts/build.ts --origin http://localhost:8899`.
 * @module
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { argValue } from './generate-corpus.ts';
import {
  classify,
  fixed,
  linearRegression,
  loadAverage,
  machineFacts,
  probe,
  registerClient,
  requireBuild,
  ROOT,
  scenarios,
  startRuntimeProcess,
  treeRss,
} from './serving-support.ts';
import { answerHelpFromDoc } from '../scripts/usage.ts';

answerHelpFromDoc(import.meta.url);

const argv = process.argv.slice(2);
const MINUTES = Number(argValue(argv, 'minutes') ?? 5);
const CONNECTIONS = Number(argValue(argv, 'connections') ?? 4);
const MODE = (argValue(argv, 'mode') ?? 'warm') as 'warm' | 'emulator';
/**
 * Edge functions: on by default for the warm runtime (in process). The emulator's local Deno server
 * grows by about 11 MB per request (a Deno Worker per invocation, see BENCHMARKS.md), which would
 * take gigabytes in a 5-minute soak, so with `--mode emulator` they are off unless `--edge on`
 * (then the RSS cap below stops the run).
 */
const EDGE = (argValue(argv, 'edge') ?? (MODE === 'warm' ? 'on' : 'off')) === 'on';
/** Safety cap: the load stops when the runtime tree's RSS passes this (MB). */
const MAX_RSS_MB = Number(argValue(argv, 'max-rss-mb') ?? 4096);
const SAMPLE_MS = 5_000;
/** Verdict thresholds on the second-half slopes. */
const LIMITS = { rssMBPerMin: 2, heapMBPerMin: 0.5 };
const MIX = ['search', 'mcp', 'token', 'static', 'tweets', 'health'];
const OUT = path.join(ROOT, 'bench', '.out');

requireBuild();
mkdirSync(OUT, { recursive: true });
const logFile = path.join(OUT, 'soak-runtime.log');
writeFileSync(logFile, '');
let runtimeErrorLines = 0;
const runtime = await startRuntimeProcess(MODE, {
  edge: EDGE,
  log: (line) => {
    appendFileSync(logFile, `${new Date().toISOString()} ${line}\n`);
    if (/error|failed|retrying/i.test(line)) runtimeErrorLines++;
  },
});

interface Sample {
  t: number;
  rssMB: number;
  processes: number;
  byNameMB: Record<string, number>;
  heapMB: number;
  externalMB: number;
  completed: number;
}
const samples: Sample[] = [];
const perScenario: Record<string, { ok: number; non2xx: number; badBodies: number; statuses: Record<string, number> }> = {};
const problems = new Map<string, number>();
let completed = 0;
let result: autocannon.Result | undefined;
let aborted: string | null = null;
const startedAt = new Date();
const loadBefore = loadAverage();
try {
  const { client, sourceAddress } = await registerClient(runtime.url, `soak-bench ${MODE}`);
  const all = scenarios(client);
  for (const name of MIX) await probe(runtime.url, all[name]!);

  const counters: Record<string, number> = {};
  const requests = MIX.map((name) => {
    const scenario = all[name]!;
    perScenario[name] = { ok: 0, non2xx: 0, badBodies: 0, statuses: {} };
    counters[name] = 0;
    const { method, path: p, headers, body } = scenario.request;
    return {
      method,
      path: p,
      headers,
      body,
      setupRequest: (req: Record<string, unknown>) => ({ ...req, ...(scenario.vary?.(counters[name]!++) ?? {}) }),
      onResponse: (status: number, responseBody: string) => {
        completed++;
        const stats = perScenario[name]!;
        stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
        let problem: string | null = null;
        if (status < 200 || status >= 300) {
          stats.non2xx++;
          problem = `${name}: HTTP ${status}: ${String(responseBody).slice(0, 400)}`;
        } else {
          const bodyProblem = scenario.check(responseBody);
          if (bodyProblem) {
            stats.badBodies++;
            problem = `${name}: ${bodyProblem}`;
          } else stats.ok++;
        }
        if (problem) {
          const key = classify(problem);
          problems.set(key, (problems.get(key) ?? 0) + 1);
        }
      },
    };
  });

  const t0 = performance.now();
  let instance: autocannon.Instance | undefined;
  const sample = async (): Promise<void> => {
    const tree = treeRss(runtime.pid);
    const memory = await runtime.memory();
    const byNameMB = Object.fromEntries(Object.entries(tree.byName).map(([name, bytes]) => [name, bytes / 2 ** 20]));
    samples.push({
      t: (performance.now() - t0) / 60_000,
      rssMB: tree.bytes / 2 ** 20,
      processes: tree.processes,
      byNameMB,
      heapMB: memory.heapUsed / 2 ** 20,
      externalMB: memory.external / 2 ** 20,
      completed,
    });
    if (tree.bytes / 2 ** 20 > MAX_RSS_MB && instance && !aborted) {
      aborted = `stopped after ${fixed(samples.at(-1)!.t, 2)} min: runtime tree RSS ${fixed(tree.bytes / 2 ** 20, 0)} MB > cap ${MAX_RSS_MB} MB (${Object.entries(
        byNameMB,
      )
        .map(([n, mb]) => `${n} ${fixed(mb, 0)} MB`)
        .join(', ')})`;
      instance.stop();
    }
  };
  await sample();
  const timer = setInterval(() => void sample(), SAMPLE_MS);
  instance = autocannon({ url: runtime.url, connections: CONNECTIONS, duration: MINUTES * 60, timeout: 30, requests });
  result = await instance;
  clearInterval(timer);
  await sample();
  console.error(`client ${client.client_id} registered from ${sourceAddress}`);
} finally {
  await runtime.stop();
}

const loadAfter = loadAverage();
const half = samples.filter((s) => s.t >= samples.at(-1)!.t / 2);
const regression = (key: 'rssMB' | 'heapMB') =>
  linearRegression(
    half.map((s) => s.t),
    half.map((s) => s[key]),
  );
const slope = (key: 'rssMB' | 'heapMB'): number => regression(key).slope;
const fullSlope = (key: 'rssMB' | 'heapMB'): number =>
  linearRegression(
    samples.map((s) => s.t),
    samples.map((s) => s[key]),
  ).slope;
const rssSlope = slope('rssMB');
const heapSlope = slope('heapMB');
const errors = (result?.errors ?? 0) + (result?.timeouts ?? 0);
const failures = Object.values(perScenario).reduce((a, s) => a + s.non2xx + s.badBodies, 0) + errors;
// Growth = a second-half slope above its limit whose 95% interval (±2 standard errors) excludes 0:
// RSS of a runtime that starts a worker per request swings by ±50 MB between samples.
const rssSE = regression('rssMB').slopeSE;
const heapSE = regression('heapMB').slopeSE;
const significant = (value: number, se: number, limit: number): boolean => value > limit && value - 2 * se > 0;
const growth = significant(rssSlope, rssSE, LIMITS.rssMBPerMin) || significant(heapSlope, heapSE, LIMITS.heapMBPerMin);
const aboveLimit = rssSlope > LIMITS.rssMBPerMin || heapSlope > LIMITS.heapMBPerMin;
const verdict = `${growth ? 'GROWTH TREND: investigate' : aboveLimit ? 'no significant growth trend (a slope above its limit, but its 95% interval includes 0)' : 'no growth trend'} (limits: RSS ≤ ${LIMITS.rssMBPerMin} MB/min, heap ≤ ${LIMITS.heapMBPerMin} MB/min over the second half, growth counted only when the 95% interval excludes 0); ${failures === 0 ? 'no errors' : `${failures} failed requests`}`;

const range = (key: 'rssMB' | 'heapMB', list: Sample[]): string =>
  `${fixed(Math.min(...list.map((s) => s[key])))}–${fixed(Math.max(...list.map((s) => s[key])))}`;
const command = `node bench/soak.bench.ts --minutes ${MINUTES} --connections ${CONNECTIONS} --mode ${MODE} --edge ${EDGE ? 'on' : 'off'}`;
const processSlopes = Object.keys(samples.at(-1)?.byNameMB ?? {}).map((name) => {
  const rows = half.filter((s) => s.byNameMB[name] !== undefined);
  return `${name} ${fixed(
    linearRegression(
      rows.map((s) => s.t),
      rows.map((s) => s.byNameMB[name]!),
    ).slope,
    2,
  )} MB/min (${fixed(rows[0]?.byNameMB[name] ?? 0, 0)} → ${fixed(rows.at(-1)?.byNameMB[name] ?? 0, 0)} MB)`;
});
const table = [
  '| metric | value |',
  '|---|---|',
  `| runtime | ${MODE === 'emulator' ? `Netlify emulation (@netlify/dev), edge functions ${EDGE ? 'on (local Deno server)' : 'off'}` : `warm runtime (\`npm start\`), edge functions ${EDGE ? 'on (in process)' : 'off'}`} |`,
  `| traffic | ${MIX.join(', ')} round-robin, ${CONNECTIONS} connections, ${MINUTES} min |`,
  `| requests completed | ${result?.requests.total ?? 0} (${fixed((result?.requests.total ?? 0) / (MINUTES * 60), 1)} req/s), latency p50 ${result?.latency.p50} ms / p99 ${result?.latency.p99} ms |`,
  `| per endpoint (2xx ok / non-2xx / wrong body) | ${Object.entries(perScenario)
    .map(([n, s]) => `${n} ${s.ok}/${s.non2xx}/${s.badBodies}`)
    .join(', ')} |`,
  `| socket errors / timeouts | ${result?.errors ?? 0} / ${result?.timeouts ?? 0} |`,
  `| runtime tree RSS, first half → second half range (MB) | ${range(
    'rssMB',
    samples.filter((s) => !half.includes(s)),
  )} → ${range('rssMB', half)} (${samples.at(-1)?.processes ?? 0} processes at the end) |`,
  `| runtime heap after GC, first half → second half range (MB) | ${range(
    'heapMB',
    samples.filter((s) => !half.includes(s)),
  )} → ${range('heapMB', half)} |`,
  `| **slope over the second half** (${half.length} samples) | **RSS ${fixed(rssSlope, 2)} ± ${fixed(2 * rssSE, 2)} MB/min, heap ${fixed(heapSlope, 2)} ± ${fixed(2 * heapSE, 2)} MB/min** (± 2 standard errors) (whole run: ${fixed(fullSlope('rssMB'), 2)} / ${fixed(fullSlope('heapMB'), 2)}) |`,
  `| second-half slope per process | ${processSlopes.join('; ')} |`,
  `| verdict | ${verdict}${aborted ? `; **${aborted}**` : ''} |`,
].join('\n');
console.log(
  `\n${command}\n\n${startedAt.toISOString()}, ${machineFacts()}, load average ${loadBefore} → ${loadAfter}; samples every ${SAMPLE_MS / 1000} s\n\n${table}\n`,
);
if (problems.size) console.log(`Failures by kind:\n${[...problems].map(([p, c]) => `- ${c} × ${p}`).join('\n')}\n`);
console.log(`Runtime log: bench/.out/soak-runtime.log, ${runtimeErrorLines} error/retry lines.`);
writeFileSync(
  path.join(OUT, 'soak.json'),
  JSON.stringify(
    {
      command,
      startedAt,
      machine: machineFacts(),
      loadBefore,
      loadAfter,
      connections: CONNECTIONS,
      minutes: MINUTES,
      mode: MODE,
      edge: EDGE,
      aborted,
      rssSlope,
      rssSlopeSE: rssSE,
      heapSlope,
      heapSlopeSE: heapSE,
      processSlopes,
      verdict,
      perScenario,
      problems: Object.fromEntries(problems),
      errors: result?.errors,
      timeouts: result?.timeouts,
      latency: result?.latency,
      total: result?.requests.total,
      runtimeErrorLines,
      samples,
    },
    null,
    2,
  ),
);
console.log('Wrote bench/.out/soak.json');
