/**
 * `npm run bench`: every benchmark of BENCHMARKS.md in one run, one after another (they share two
 * cores, so running them side by side would measure each other). Pass `--quick` for a smoke run
 * with small sizes and short durations; the recorded figures come from the full run.
 *
 *     node bench/run-all.ts [--quick]      (npm run bench [-- --quick])
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { answerHelpFromDoc } from '../scripts/usage.ts';

answerHelpFromDoc(import.meta.url);

const quick = process.argv.includes('--quick');
const BENCH_DIR = import.meta.dirname;

/** Script and arguments, full run and quick run. */
const STEPS: { script: string; full: string[]; quick: string[] }[] = [
  { script: 'search.bench.ts', full: ['--n', '10000'], quick: ['--n', '1000', '--runs', '1'] },
  {
    script: 'mcp.bench.ts',
    full: ['--requests', '2000', '--seconds', '15', '--cold', '10'],
    quick: ['--requests', '200', '--seconds', '3', '--cold', '2'],
  },
  {
    script: 'build.bench.ts',
    full: ['--sizes', '1000,10000', '--og', 'on-demand,off', '--edit'],
    quick: ['--sizes', '100', '--og', 'off', '--tools', 'ours,bare'],
  },
  { script: 'serve.bench.ts', full: ['--seconds', '30', '--connections', '10'], quick: ['--seconds', '3'] },
  {
    script: 'runtime.bench.ts',
    full: ['--seconds', '10', '--requests', '20000', '--endurance-seconds', '60'],
    quick: ['--seconds', '2', '--requests', '2000', '--endurance-seconds', '5', '--ready-runs', '1'],
  },
  { script: 'rebuild-memory.bench.ts', full: ['--rebuilds', '12'], quick: ['--rebuilds', '2'] },
  { script: 'cold-start.bench.ts', full: ['--sizes', '1000,10000', '--runs', '10'], quick: ['--sizes', '1000', '--runs', '2'] },
  {
    script: 'cold-start.bench.ts',
    full: ['--sizes', '100000', '--runs', '5', '--functions', 'search'],
    quick: ['--sizes', '2000', '--runs', '1', '--functions', 'search'],
  },
  { script: 'pagefind.bench.ts', full: ['--n', '10000', '--runs', '3'], quick: ['--n', '1000', '--runs', '1'] },
  { script: 'search-page.bench.ts', full: ['--runs', '2', '--typing-queries', '9'], quick: ['--runs', '1', '--typing-queries', '3'] },
  // Scalar and Redoc are measured only with --renderers <their node_modules> (see the script); this row measures ours.
  { script: 'api-reference.bench.ts', full: [], quick: [] },
  { script: 'soak.bench.ts', full: ['--minutes', '5', '--connections', '4'], quick: ['--minutes', '0.5'] },
];

let failed = 0;
for (const step of STEPS) {
  const args = quick ? step.quick : step.full;
  console.log(`\n=== node bench/${step.script} ${args.join(' ')}`);
  const run = spawnSync(process.execPath, [path.join(BENCH_DIR, step.script), ...args], { stdio: 'inherit' });
  if (run.status !== 0) {
    failed++;
    console.error(`bench/${step.script} exited with ${run.status ?? run.signal}`);
  }
}
process.exit(failed ? 1 : 0);
