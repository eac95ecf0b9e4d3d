/**
 * `node scripts/build.ts`: the one build entry point. Builds the site (astro build, then the
 * Pagefind index) when the last build is missing or stale: sources, content, config or origin
 * changed since then. `npm start`, `npm run dev`, `npm run deploy:check`, the benches and the test
 * setup all go through {@link ensureBuild}; callers pass their origin in (the tests pass theirs).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { answerHelp } from './usage.ts';
import { buildFingerprint, FINGERPRINT_FILE } from './build-fingerprint.ts';
import { parseBuildConfig } from '../src/core/config.ts';
import { normalizeOrigin } from '../src/core/kernel/origin.ts';
import { seedDeployStore } from './runtime/deploy-blobs.ts';
import type { Catalog } from '../src/core/content/catalog.ts';
import { DEPLOY_BLOBS_DIR, deployBodyFiles } from '../src/astro/integrations/deploy-blobs.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Runs `astro build` and the Pagefind step for `origin` unless dist/ already holds that exact build. Returns whether it built. */
export function ensureBuild(origin: string, options: { contentDir?: string; force?: boolean; quiet?: boolean } = {}): boolean {
  const contentDir = options.contentDir ?? parseBuildConfig(process.env).contentDir;
  const fingerprint = buildFingerprint(origin, contentDir);
  const current = existsSync(FINGERPRINT_FILE) ? readFileSync(FINGERPRINT_FILE, 'utf8').trim() : '';
  if (!options.force && current === fingerprint && existsSync(path.join(ROOT, 'dist', 'index.html'))) {
    restoreDeployBodies();
    return false;
  }
  if (!options.quiet) console.log(`Building the site for ${origin} ...`);
  // Until this build has finished, dist/ holds no build that a fingerprint can vouch for.
  rmSync(FINGERPRINT_FILE, { force: true });
  const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build'], {
    cwd: ROOT,
    env: { ...process.env, SITE_URL: origin, CONTENT_DIR: contentDir, ASTRO_TELEMETRY_DISABLED: '1' },
    stdio: options.quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    const output = options.quiet ? `\n${result.stdout}\n${result.stderr}` : '';
    throw new Error(`astro build failed (exit ${result.status})${output}`);
  }
  // The second build step, as in `npm run build`: Pagefind in its own process.
  const indexed = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'pagefind-index.ts'), path.join(ROOT, 'dist')], {
    cwd: ROOT,
    stdio: options.quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    encoding: 'utf8',
  });
  if (indexed.status !== 0) {
    const output = options.quiet ? `\n${indexed.stdout}\n${indexed.stderr}` : '';
    throw new Error(`Pagefind indexing failed (exit ${indexed.status})${output}`);
  }
  writeFileSync(FINGERPRINT_FILE, `${fingerprint}\n`);
  return true;
}

/**
 * Writes the build's deploy-store bodies again when they are gone but the build is current:
 * Netlify's build clears `.netlify/v1` before it runs the build command (`npm run deploy:check`
 * runs it), and the bodies are a pure function of the catalogue the build left in generated/.
 */
function restoreDeployBodies(): void {
  if (existsSync(path.join(ROOT, DEPLOY_BLOBS_DIR))) return;
  const catalog = JSON.parse(readFileSync(path.join(ROOT, 'generated', 'data', 'catalog.json'), 'utf8')) as Catalog;
  for (const { file, data } of deployBodyFiles(path.join(ROOT, DEPLOY_BLOBS_DIR), catalog)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, data);
  }
}

const USAGE = `Usage: node scripts/build.ts [--origin <url>] [--force] [--seed-local-blobs]

Builds the site (astro build, then the Pagefind index) unless dist/ already holds the build for
this origin and these sources.

  --origin <url>        the public origin baked into the build; default: from SITE_URL (or URL,
                        DEPLOY_PRIME_URL on Netlify), else http://localhost:$PORT
  --force               build even when dist/ is current
  --seed-local-blobs    copy the build's deploy store (article bodies) into .netlify/blobs-serve,
                        where \`npm run dev\`'s functions read Blobs`;

/** The command-line options: an explicit origin wins over the environment. */
export function parseBuildArgs(
  argv: readonly string[],
  env: Record<string, string | undefined>,
): { origin: string; force: boolean; seedLocalBlobs: boolean } {
  const at = argv.indexOf('--origin');
  const explicit = at === -1 ? undefined : argv[at + 1];
  if (at !== -1 && (!explicit || explicit.startsWith('--'))) throw new Error('--origin needs a URL (e.g. --origin http://localhost:8899)');
  return {
    origin: explicit ? normalizeOrigin(explicit) : parseBuildConfig(env).origin,
    force: argv.includes('--force'),
    seedLocalBlobs: argv.includes('--seed-local-blobs'),
  };
}

if (import.meta.main) {
  answerHelp(USAGE);
  const options = parseBuildArgs(process.argv.slice(2), process.env);
  const built = ensureBuild(options.origin, { quiet: true, force: options.force });
  console.log(built ? `Built the site for ${options.origin}.` : `The build for ${options.origin} is current.`);
  // `npm run dev`'s functions (the vite plugin's @netlify/dev) read Blobs from .netlify/blobs-serve: give them the build's deploy store.
  if (options.seedLocalBlobs) seedDeployStore(path.join(ROOT, '.netlify', 'blobs-serve'), ROOT);
}
