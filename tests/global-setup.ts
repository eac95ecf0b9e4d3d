/**
 * Once per `npm test`: build the site for the test origin when stale, and start every test run
 * with empty default local Blobs (the parity test's @netlify/dev keeps them in .netlify/ across runs;
 * every other runtime in the tests has its own temporary folder). vitest runs it (vitest.config.ts
 * globalSetup) after reading the command line, so `npm test -- --help` prints vitest's help at once
 * and `npm test -- --project unit` builds nothing. `node tests/global-setup.ts` builds the test
 * build on its own (the benches that serve it).
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { ensureBuild } from '../scripts/build.ts';
import { answerHelp } from '../scripts/usage.ts';
import { TEST_ORIGIN } from './support/origin.ts';

/** The projects named with --project on the command line (none: every project runs). */
function selectedProjects(argv: readonly string[]): string[] {
  return argv.flatMap((arg, i) => (arg === '--project' ? [argv[i + 1] ?? ''] : arg.startsWith('--project=') ? [arg.slice(10)] : []));
}

export default function setup(): void {
  // The in-process tests need no build: `npm run test:unit` (vitest run --project unit) starts at once after an edit.
  const projects = selectedProjects(process.argv);
  if (projects.length > 0 && projects.every((p) => p === 'unit')) return;
  rmSync(path.resolve(import.meta.dirname, '..', '.netlify', 'blobs-serve'), { recursive: true, force: true });
  ensureBuild(TEST_ORIGIN, { quiet: true, contentDir: './content' });
}

if (import.meta.main) {
  answerHelp(`Usage: node tests/global-setup.ts

Builds the site for the test origin (${TEST_ORIGIN}) when the last build is stale, and empties
.netlify/blobs-serve. vitest runs it first in every run that is not only --project unit.`);
  setup();
}
