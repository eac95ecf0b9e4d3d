/**
 * What a deploy installs: `npm install` of a copy of the repository, everything (what a developer
 * installs, and what every deploy installed before NPM_FLAGS) against `--omit=dev` (what Netlify's
 * build installs now, netlify.toml), each from a warm npm cache, as Netlify's build cache keeps it.
 * Reports wall time, CPU-seconds of npm and its children, packages and bytes of node_modules.
 *
 *     node bench/install.bench.ts [--runs 3]
 * @module
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { argValue } from './generate-corpus.ts';
import { median } from './stats.ts';
import { answerHelpFromDoc } from '../scripts/usage.ts';

answerHelpFromDoc(import.meta.url);

const ROOT = path.resolve(import.meta.dirname, '..');
const RUNS = Number(argValue(process.argv.slice(2), 'runs') ?? 3);

function copyRepository(to: string): void {
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
  for (const file of files) {
    if (!existsSync(path.join(ROOT, file))) continue;
    mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
    cpSync(path.join(ROOT, file), path.join(to, file));
  }
}

function measure(flags: string[]): { wallS: number; cpuS: number; packages: number; megabytes: number } {
  const dir = mkdtempSync(path.join(tmpdir(), 'install-bench-'));
  try {
    copyRepository(dir);
    const started = performance.now();
    // GNU time reports the CPU of npm and its children.
    const run = spawnSync('/usr/bin/time', ['-f', '%U %S', 'npm', 'install', ...flags, '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: dir,
      encoding: 'utf8',
    });
    const wallS = (performance.now() - started) / 1000;
    if (run.status !== 0) throw new Error(`npm install ${flags.join(' ')} failed:\n${run.stderr.slice(-2000)}`);
    const [user, system] = run.stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
    // Every package installed, at any depth (npm's own list, less the project itself).
    const packages =
      execFileSync('npm', ['ls', '--all', '--parseable'], { cwd: dir, encoding: 'utf8' }).split('\n').filter(Boolean).length - 1;
    const megabytes = Number(execFileSync('du', ['-sm', 'node_modules'], { cwd: dir, encoding: 'utf8' }).split('\t')[0]);
    return { wallS, cpuS: user! + system!, packages, megabytes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const rows: [string, ReturnType<typeof measure>[]][] = [
  ['npm install (everything: a developer; every deploy before)', []],
  ['npm install --omit=dev (a deploy now)', []],
];
for (let run = 0; run < RUNS; run++) {
  // Alternate the order each round, so neither always meets a warmer cache.
  const order = run % 2 === 0 ? [0, 1] : [1, 0];
  for (const i of order) rows[i]![1].push(measure(i === 0 ? [] : ['--omit=dev']));
}
console.log(`\n${RUNS} runs each, warm npm cache, alternating order\n`);
console.log('| install | wall s (median) | CPU s (median) | packages | node_modules MB |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const [name, runs] of rows) {
  const m = (f: (r: ReturnType<typeof measure>) => number) => median(runs.map(f));
  console.log(
    `| ${name} | ${m((r) => r.wallS).toFixed(1)} | ${m((r) => r.cpuS).toFixed(1)} | ${m((r) => r.packages)} | ${m((r) => r.megabytes)} |`,
  );
}
