/**
 * Where `npm test`'s time goes, in CPU-seconds (issue 13's goal: the full suite in ≤ 4 minutes on
 * two cores, i.e. at most 480 CPU-seconds even with both cores busy all the time).
 *
 *     node bench/test-suite-cpu.ts [--files a.test.ts,b.test.ts] [--suite]
 *
 * Runs each test file alone (`vitest run <file>`, the suite's own configuration) in a fresh cgroup
 * and reads the cgroup's CPU time: Vitest, its workers, every server and child process the file
 * starts, and Chromium, which chrome-launcher and Playwright start in process groups of their own
 * (`/usr/bin/time` and `process.cpuUsage()` miss it). Every run pays Vitest's start and one worker,
 * which the suite pays once per worker (the core's files) or once per file (the isolated ones): the
 * cheapest file stands for that cost, and each file's marginal cost is its time minus it (so the
 * sums below leave out every file's start, in the rest's favour). `--suite` also runs the whole
 * `npm test` in one cgroup. Files are grouped into what issue 13 says stays ("the browser,
 * Lighthouse and conformance tests stay", the parity test and the deploy check it asks for) and the
 * rest, against the 480 CPU-second budget. Writes bench/.out/test-suite-cpu.json.
 *
 * Needs a writable cgroup hierarchy (v1 `cpuacct` or v2, usually root) and the test build; run it
 * with nothing else busy, as every file's figure is CPU time, not a ratio.
 * @module
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { answerHelp } from '../scripts/usage.ts';
import { argValue } from './generate-corpus.ts';
import { fixed, loadAverage, machineFacts, ROOT } from './serving-support.ts';

answerHelp(`
Usage: node bench/test-suite-cpu.ts [--files a.test.ts,b.test.ts] [--suite]

Runs each test file alone in a fresh cgroup and prints its CPU-seconds (Chromium included), grouped
into what issue 13 keeps and the rest, against the 480 CPU-second budget of 4 minutes on two cores.
--suite also measures the whole npm test. Needs a writable cgroup hierarchy (usually root).
`);

/** Four minutes on two cores. */
const BUDGET_CPU_S = 4 * 60 * 2;
/** What issue 13 keeps whatever the goal: browser, Lighthouse and conformance tests, the parity test, the deploy check. */
const KEPT_BY_THE_ISSUE = [
  /^tests\/browser\//,
  /conformance\.test\.ts$/,
  /^tests\/integration\/runtime-parity\.test\.ts$/,
  /^tests\/integration\/deploy-check\.test\.ts$/,
];

/** A cgroup hierarchy: where groups are made, the file a process joins by, and how CPU time is read. */
interface Hierarchy {
  root: string;
  processesFile: string;
  cpuSeconds(group: string): number;
}

/** cgroup v1 (`cpuacct.usage`, nanoseconds) or v2 (`cpu.stat` usage_usec), whichever is mounted. */
function cgroupHierarchy(): Hierarchy {
  const v1: Hierarchy = {
    root: '/sys/fs/cgroup/cpuacct',
    processesFile: 'tasks',
    cpuSeconds: (group) => Number(readFileSync(path.join(group, 'cpuacct.usage'), 'utf8')) / 1e9,
  };
  const v2: Hierarchy = {
    root: '/sys/fs/cgroup',
    processesFile: 'cgroup.procs',
    cpuSeconds: (group) => Number(/usage_usec (\d+)/.exec(readFileSync(path.join(group, 'cpu.stat'), 'utf8'))?.[1]) / 1e6,
  };
  if (existsSync(path.join(v1.root, 'cpuacct.usage'))) return v1;
  if (existsSync(path.join(v2.root, 'cgroup.controllers'))) return v2;
  throw new Error('no cgroup hierarchy found under /sys/fs/cgroup: this benchmark needs one (Linux)');
}

interface Run {
  label: string;
  cpuSeconds: number;
  wallSeconds: number;
  exitCode: number | null;
}

/** Runs `command` in a fresh cgroup (a shell enters it, then execs the command) and waits for every process in it. */
async function measure(hierarchy: Hierarchy, label: string, command: string[]): Promise<Run> {
  const group = path.join(hierarchy.root, `test-suite-cpu-${process.pid}-${Date.now()}`);
  mkdirSync(group);
  const processes = path.join(group, hierarchy.processesFile);
  const started = performance.now();
  const child = spawn('sh', ['-c', `echo $$ > '${processes}' && exec "$@"`, 'sh', ...command], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PATH: `${path.join(ROOT, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}` },
  });
  const exitCode = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const wallSeconds = (performance.now() - started) / 1000;
  // Processes the command left behind would keep the cgroup busy (and are a bug of the file): wait briefly, then say so.
  for (let i = 0; i < 20 && readFileSync(processes, 'utf8').trim(); i++) await new Promise((r) => setTimeout(r, 250));
  const left = readFileSync(processes, 'utf8').trim();
  const cpuSeconds = hierarchy.cpuSeconds(group);
  if (left) console.error(`${label}: processes still running after it exited: ${left.split('\n').join(' ')}`);
  else rmdirSync(group);
  return { label, cpuSeconds, wallSeconds, exitCode };
}

async function testFiles(): Promise<string[]> {
  const listed = argValue(process.argv.slice(2), 'files');
  if (listed) return listed.split(',');
  const out: Buffer[] = [];
  const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'vitest'), ['list', '--filesOnly', '--json'], { cwd: ROOT });
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`vitest list exited with ${code}: cannot list the test files`);
  return (JSON.parse(Buffer.concat(out).toString('utf8')) as { file: string }[]).map((entry) => path.relative(ROOT, entry.file)).sort();
}

const hierarchy = cgroupHierarchy();
const files = await testFiles();
console.log(`${machineFacts()}; load average ${loadAverage()}; ${files.length} files`);
const runs: Run[] = [];
for (const file of files) {
  const run = await measure(hierarchy, file, ['vitest', 'run', file]);
  runs.push(run);
  console.log(
    `${fixed(run.cpuSeconds).padStart(7)} CPU-s ${fixed(run.wallSeconds).padStart(7)} s  ${file}${run.exitCode ? ` (exit ${run.exitCode})` : ''}`,
  );
}
const suite = process.argv.includes('--suite') ? await measure(hierarchy, 'npm test', ['npm', 'test']) : undefined;

/** Vitest's start and one worker: what the cheapest file costs. */
const start = runs.reduce((least, run) => (run.cpuSeconds < least.cpuSeconds ? run : least), runs[0]!);
const marginal = (run: Run): number => Math.max(0, run.cpuSeconds - start.cpuSeconds);
const kept = runs.filter((run) => KEPT_BY_THE_ISSUE.some((pattern) => pattern.test(run.label)));
const rest = runs.filter((run) => !kept.includes(run));
const total = (list: Run[]): number => list.reduce((sum, run) => sum + marginal(run), 0);
console.log(`\nVitest's start and one worker (the cheapest file, ${start.label}): ${fixed(start.cpuSeconds)} CPU-s`);
console.log(`kept by the issue (${kept.length} files): ${fixed(total(kept))} CPU-s beyond Vitest's start`);
console.log(`the rest (${rest.length} files): ${fixed(total(rest))} CPU-s beyond Vitest's start, run alone`);
console.log(`budget: ${BUDGET_CPU_S} CPU-s; left for the rest after what is kept: ${fixed(BUDGET_CPU_S - total(kept))} CPU-s`);
if (suite) console.log(`npm test: ${fixed(suite.cpuSeconds)} CPU-s, ${fixed(suite.wallSeconds)} s (exit ${suite.exitCode})`);

const out = path.join(ROOT, 'bench', '.out');
mkdirSync(out, { recursive: true });
writeFileSync(
  path.join(out, 'test-suite-cpu.json'),
  `${JSON.stringify({ date: new Date().toISOString(), machine: machineFacts(), budgetCpuSeconds: BUDGET_CPU_S, start: start.label, runs, suite }, null, 2)}\n`,
);
if ([...runs, ...(suite ? [suite] : [])].some((run) => run.exitCode !== 0)) process.exitCode = 1;
