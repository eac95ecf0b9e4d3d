/**
 * What build `dist/` holds: a hash of every build input, the content folder and the origin, in
 * `generated/fingerprint.txt`. {@link ensureBuild} (scripts/build.ts: `npm start`, the tests, the
 * benches) builds only when it differs. `npm run build` (Netlify's build command, and an author's)
 * records it too, so a following `npm start` for the same origin serves that build instead of
 * building it again:
 *
 *   node scripts/build-fingerprint.ts --before   (before astro build: the inputs as the build reads them)
 *   node scripts/build-fingerprint.ts --after    (after the Pagefind step: the build is complete)
 *
 * A build that fails between the two records nothing; inputs edited during the build are caught,
 * as the fingerprint is taken before it starts.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseBuildConfig } from '../src/core/config.ts';
import { loadDotEnv } from './dot-env.ts';
import { answerHelpFromDoc } from './usage.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
/** The fingerprint of the build `dist/` holds. */
export const FINGERPRINT_FILE = path.join(ROOT, 'generated', 'fingerprint.txt');
/**
 * The fingerprint of the build under way (`--before`), moved to {@link FINGERPRINT_FILE} by `--after`: in the build
 * cache folder, as the build empties generated/.
 */
const pendingFile = (cacheDir: string): string => path.resolve(ROOT, cacheDir, 'build-fingerprint.pending');
/** Everything a build reads. */
const INPUTS = ['src', 'public', 'astro.config.mjs', 'package.json', 'package-lock.json', 'netlify.toml', 'scripts/pagefind-index.ts'];

function* files(entry: string): Generator<string> {
  if (!existsSync(entry)) return;
  if (statSync(entry).isDirectory()) {
    for (const name of readdirSync(entry).sort()) yield* files(path.join(entry, name));
  } else if (!entry.endsWith('.test.ts')) {
    yield entry;
  }
}

/** A hash of every build input, the content folder and the origin. */
export function buildFingerprint(origin: string, contentDir: string): string {
  const hash = createHash('sha256').update(`origin=${origin}\ncontent=${contentDir}\n`);
  for (const input of [...INPUTS.map((i) => path.join(ROOT, i)), path.resolve(ROOT, contentDir)]) {
    for (const file of files(input)) hash.update(path.relative(ROOT, file)).update('\0').update(readFileSync(file));
  }
  return hash.digest('hex');
}

if (import.meta.main) {
  answerHelpFromDoc(import.meta.url);
  const step = process.argv[2];
  // The origin as astro.config.mjs takes it, `.env` included.
  loadDotEnv(path.join(ROOT, '.env'));
  const config = parseBuildConfig(process.env);
  const pending = pendingFile(config.cacheDir);
  if (step === '--before') {
    rmSync(FINGERPRINT_FILE, { force: true });
    mkdirSync(path.dirname(pending), { recursive: true });
    writeFileSync(pending, `${buildFingerprint(config.origin, config.contentDir)}\n`);
  } else if (step === '--after') {
    if (existsSync(pending)) {
      mkdirSync(path.dirname(FINGERPRINT_FILE), { recursive: true });
      renameSync(pending, FINGERPRINT_FILE);
    }
  } else {
    console.error('usage: node scripts/build-fingerprint.ts --before | --after');
    process.exit(2);
  }
}
