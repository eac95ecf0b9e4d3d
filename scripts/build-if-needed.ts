/**
 * `node scripts/build-if-needed.ts [--for-tests] [--seed-local-blobs]`: build unless dist/ already holds the build for
 * this origin and these sources. `npm test` runs it first (the type check reads generated/ data);
 * `npm run dev` runs it so the functions have their data (and the local deploy store its bodies).
 */
import { resolveOrigin } from '../src/core/kernel/origin.ts';
import { TEST_ORIGIN } from '../tests/support/origin.ts';
import path from 'node:path';
import { ensureBuild } from './ensure-build.ts';
import { answerHelp } from './usage.ts';

answerHelp(`Usage: node scripts/build-if-needed.ts [--for-tests]

Builds the site (astro build + the Pagefind index) unless dist/ already holds the build for this
origin and these sources. --for-tests builds for the test origin (${TEST_ORIGIN}); otherwise the
origin comes from SITE_URL (or http://localhost:$PORT).`);
import { seedDeployStore } from './runtime/deploy-blobs.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

const forTests = process.argv.includes('--for-tests');
const origin = forTests ? TEST_ORIGIN : resolveOrigin(process.env);
const built = ensureBuild(origin, { quiet: true });
console.log(built ? `Built the site for ${origin}.` : `The build for ${origin} is current.`);
// `npm run dev`'s functions (the vite plugin's @netlify/dev) read Blobs from .netlify/blobs-serve: give them the build's deploy store.
if (process.argv.includes('--seed-local-blobs')) seedDeployStore(path.join(ROOT, '.netlify', 'blobs-serve'), ROOT);
