/**
 * Serving under load (issue 7): autocannon against the local runtime, one endpoint at a time:
 * `GET /api/search`, `POST /mcp` tools/call search_articles, `POST /oauth/token`
 * (client_credentials) and a static page (`GET /blog/`).
 *
 *     node bench/serve.bench.ts [--seconds 30] [--connections 10] [--modes warm] [--scenarios search,mcp,token,static]
 *
 * The runtime runs in its own process (bench/runtime-child.ts): `warm` (default) is what `npm start`
 * serves (scripts/runtime/: functions imported once, the edge function in process); `emulator` is
 * Netlify's @netlify/dev emulation that `npm start` ran before (a fresh worker per function call),
 * for before/after figures.
 * Every answer is checked (status and body); non-2xx, socket errors, timeouts and wrong bodies are
 * counted and listed. Writes bench/.out/serve.json.
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
  loadAverage,
  machineFacts,
  probe,
  registerClient,
  requireBuild,
  ROOT,
  scenarios,
  startRuntimeProcess,
  treeRss,
  type Scenario,
} from './serving-support.ts';
import { answerHelpFromDoc } from '../scripts/usage.ts';

answerHelpFromDoc(import.meta.url);

const argv = process.argv.slice(2);
const SECONDS = Number(argValue(argv, 'seconds') ?? 30);
const CONNECTIONS = Number(argValue(argv, 'connections') ?? 10);
const MODES = (argValue(argv, 'modes') ?? 'warm').split(',') as ('warm' | 'emulator')[];
const SCENARIOS = (argValue(argv, 'scenarios') ?? 'search,mcp,token,static').split(',');
/** Warm-up before each measured run (not counted), at the same concurrency. */
const WARMUP_SECONDS = Math.min(5, Math.max(1, Math.round(SECONDS / 10)));
/** A request slower than this counts as a timeout (autocannon's default is 10 s). */
const TIMEOUT_SECONDS = 20;
const OUT = path.join(ROOT, 'bench', '.out');
const MODE_LABEL: Record<string, string> = {
  warm: 'warm runtime (`npm start`), edge on',
  emulator: 'emulator (@netlify/dev, `npm start` before issue 13), edge on',
};

interface RunResult {
  mode: string;
  scenario: string;
  describe: string;
  connections: number;
  seconds: number;
  total: number;
  rps: number;
  latency: { p50: number; p90: number; p99: number; mean: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  badBodies: number;
  statusCodes: Record<string, number>;
  problems: string[];
  loadBefore: string;
  loadAfter: string;
  runtimeRssMB: number;
}

/** Runs autocannon for `seconds` on one scenario, checking every answer. */
async function load(
  url: string,
  scenario: Scenario,
  seconds: number,
): Promise<{ result: autocannon.Result; badBodies: number; problems: string[] }> {
  let counter = 0;
  let badBodies = 0;
  const problems = new Map<string, number>();
  const { method, path: p, headers, body } = scenario.request;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: TIMEOUT_SECONDS,
    requests: [
      {
        method,
        path: p,
        headers,
        body,
        setupRequest: (req: Record<string, unknown>) => ({ ...req, ...(scenario.vary?.(counter++) ?? {}) }),
        onResponse: (status: number, responseBody: string) => {
          if (status >= 200 && status < 300) {
            const problem = scenario.check(responseBody);
            if (problem) {
              badBodies++;
              problems.set(classify(problem), (problems.get(classify(problem)) ?? 0) + 1);
            }
          } else {
            const key = classify(`${scenario.name}: HTTP ${status}: ${String(responseBody).slice(0, 300)}`);
            problems.set(key, (problems.get(key) ?? 0) + 1);
          }
        },
      },
    ],
  });
  return { result, badBodies, problems: [...problems].map(([p, count]) => `${count} × ${p}`) };
}

requireBuild();
mkdirSync(OUT, { recursive: true });
/** Runtime output goes to a log file; error lines are counted and reported. */
const logFile = path.join(OUT, 'serve-runtime.log');
writeFileSync(logFile, '');
let runtimeErrorLines = 0;
const runtimeLog = (line: string): void => {
  appendFileSync(logFile, `${new Date().toISOString()} ${line}\n`);
  if (/error|failed|retrying/i.test(line)) runtimeErrorLines++;
};
const startedAt = new Date();
const results: RunResult[] = [];
const clients: Record<string, string> = {};
for (const mode of MODES) {
  for (const name of SCENARIOS) {
    // A fresh runtime per row: every row starts from the same state (and the emulator's local Deno
    // edge server, which grows by about 11 MB per request, see BENCHMARKS.md, is restarted).
    const runtime = await startRuntimeProcess(mode, { edge: true, log: runtimeLog });
    try {
      const { client, sourceAddress } = await registerClient(runtime.url, `serve-bench ${mode} ${name}`);
      clients[`${mode} ${name}`] = `${client.client_id} (registered from ${sourceAddress})`;
      const scenario = scenarios(client)[name];
      if (!scenario) throw new Error(`unknown scenario ${name}`);
      await probe(runtime.url, scenario); // fails fast with the reason
      appendFileSync(logFile, `${new Date().toISOString()} --- ${mode} ${name}: warm-up\n`);
      await load(runtime.url, scenario, WARMUP_SECONDS);
      const loadBefore = loadAverage();
      appendFileSync(logFile, `${new Date().toISOString()} --- ${mode} ${name}: measured run\n`);
      const { result, badBodies, problems } = await load(runtime.url, scenario, SECONDS);
      appendFileSync(logFile, `${new Date().toISOString()} --- ${mode} ${name}: done\n`);
      const run: RunResult = {
        mode,
        scenario: name,
        describe: scenario.describe,
        connections: CONNECTIONS,
        seconds: SECONDS,
        total: result.requests.total,
        rps: result.requests.total / (result.duration || SECONDS),
        latency: {
          p50: result.latency.p50,
          p90: result.latency.p90,
          p99: result.latency.p99,
          mean: result.latency.mean,
          max: result.latency.max,
        },
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        badBodies,
        statusCodes: Object.fromEntries(
          Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, (stat as { count: number }).count]),
        ),
        problems,
        loadBefore,
        loadAfter: loadAverage(),
        runtimeRssMB: treeRss(runtime.pid).bytes / 2 ** 20,
      };
      results.push(run);
      console.error(
        `${mode} ${name}: ${fixed(run.rps)} req/s, p50 ${run.latency.p50} ms, p99 ${run.latency.p99} ms, non-2xx ${run.non2xx}, errors ${run.errors}, timeouts ${run.timeouts}, bad bodies ${badBodies}${problems.length ? ` (${problems.join(' | ')})` : ''}, load ${run.loadAfter}, runtime RSS ${fixed(run.runtimeRssMB, 0)} MB`,
      );
    } finally {
      await runtime.stop();
    }
  }
}

const command = `node bench/serve.bench.ts --seconds ${SECONDS} --connections ${CONNECTIONS} --modes ${MODES.join(',')} --scenarios ${SCENARIOS.join(',')}`;
const table = [
  '| runtime | endpoint | req/s | p50 ms | p99 ms | max ms | requests | non-2xx | errors | timeouts | wrong bodies | runtime RSS after, MB | 1-min load before → after |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ...results.map(
    (r) =>
      `| ${MODE_LABEL[r.mode]} | ${r.describe} | ${fixed(r.rps)} | ${r.latency.p50} | ${r.latency.p99} | ${r.latency.max} | ${r.total} | ${r.non2xx} | ${r.errors} | ${r.timeouts} | ${r.badBodies} | ${fixed(r.runtimeRssMB, 0)} | ${r.loadBefore.split(' ')[0]} → ${r.loadAfter.split(' ')[0]} |`,
  ),
].join('\n');
const failures = results.filter((r) => r.non2xx || r.errors || r.timeouts || r.badBodies);
console.log(`Runtime log: bench/.out/serve-runtime.log, ${runtimeErrorLines} error/retry lines.`);
console.log(
  `\n${command}\n\n${startedAt.toISOString()}, ${machineFacts()}; ${CONNECTIONS} connections, ${SECONDS} s per row after a ${WARMUP_SECONDS} s warm-up\n\n${table}\n`,
);
if (failures.length)
  console.log(
    `Failures:\n${failures.map((r) => `- ${r.mode} ${r.scenario}: ${JSON.stringify(r.statusCodes)} ${r.problems.join(' | ')}`).join('\n')}\n`,
  );
writeFileSync(
  path.join(OUT, 'serve.json'),
  JSON.stringify(
    {
      command,
      startedAt,
      machine: machineFacts(),
      runtimeErrorLines,
      connections: CONNECTIONS,
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      clients,
      results,
    },
    null,
    2,
  ),
);
console.log('Wrote bench/.out/serve.json');
if (failures.length) process.exitCode = 1;
